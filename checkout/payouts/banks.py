"""Bank lists of the payout countries beyond Brazil and Mexico, as the provider's bank-code pages give them."""

# Longer than the house's ~300 lines on purpose: it is data, each country's list copied whole from its page, so
# that it reads line by line against the provider's.

from __future__ import annotations


def _table(text: str) -> dict[str, str]:
    """bank_code -> bank name, from one bank a line: its code, a space, its name."""
    return dict(line.split(" ", 1) for line in text.strip().splitlines())


# Argentina
_ARG = """
007 Banco de Galicia y Buenos Aires S.A.U.
011 Bando de la Nación Argentina
014 Banco de la Provincia de Buenos Aires
015 Industrial and Commercial Bank of China
016 Citibank N.A
017 Banco BBVA Argentina S.A.
020 Banco de la Provincia de Córdoba S.A.
027 Banco Superville S.A.
029 Banco de la Ciudad de Buenos Aires
034 Banco Patagonia S.A.
044 Banco Hipotecario S.A.
045 Banco de San Juan S.A.
065 Banco Municipal de Rosario
072 Banco Santander Río S.A.
083 Banco Anco del Chubut S.A.
086 Banco de Santa Cruz S.A
093 Banco de la Pampa Sociedad de Economía M
094 Banco de Corrientes S.A.
097 Banco Provincia del Neuquén Sociedad Anónima
143 Brubank S.A.U.
147 Banco Interfinanzas S.A.
150 Hsbc Bank Argentina S.A.
158 Open Bank Argentina S.A.
165 JPMorgan Chase Bank National Associatio
191 Banco Credicoop Cooperativo Limitado
198 Banco de Valores S.A.
247 Banco Roela S.A.
254 Banco Mariva S.A.
259 Banco Itau Argentina S.A.
262 Bank of America National Association
266 Bnp Paribas
268 Banco Provincia de Tierra del Fuego
269 Banco de la República del Uruguay
277 Banco Saenz S.A.
281 Banco Meridian S.A.
285 Banco Macro S.A.
299 Banco Comafi Sociedad Anónima
300 Banco de Inversión y Comercio Exteriror S.A.
301 Banco Piano S.A.
305 Banco Julio Sociedad Anónima
309 Banco Rioja Sociedad Anónima Unipersonal
310 Banco del Sol S.A.
311 Nuevo Banco del Chaco S. A.
312 Banco Voii S.A.
315 Banco de Formosa S.A.
319 Banco Cmf S.A.
321 Banco de Santiago del Estero S.A.
322 Banco Industrial S.A.
330 Nuevo Banco de Santa Fe Sociedad Anónima
331 Banco Cetelem Argentina S.A.
332 Banco de Servicio Financieros S.A.
336 Banco Bradesco Argentina S.A.U.
338 Banco de Servicios y Transacciones S.A.
339 Rci Banque S.A.
340 Bacs Banco de Crédito y Securitizacion S.A.
341 Banco Masventas S.A.
384 Wilobank S.A.
386 Nuevo Banco de Entre Ríos S.A.
389 Banco Columbia S.A.
412 Guiñazú S.A.
415 Rebanking Holding SA
426 Banco Bica S.A.
431 Banco Coinag S.A.
432 Banco de Comercio S.A.
435 Banco Su Crédito Regional S.A.U.
438 Banco Iudu
445 Cambio Davsa SRL
448 Banco Dino
515 Bank of China Limited Sucursal Buenos Aires
"""

# Chile
_CHL = """
001 Banco de Chile - Edwards
009 Banco Internacional
012 Banco Estado (Banco del Estado de Chile)
014 Scotiabank
016 BCI (Bco de Credito e Inv)
017 Banco do Brasil
027 Itau-Corpbanca
028 Banco Bice
031 HSBC Bank
035 Banco Santiago
037 Banco Santander
039 Itau Chile
041 JP Morgan Chase Bank N.A.
043 Banco de La Nacion Argentina
045 The Bank of Tokyo-Mitsubishi Ufj, Ltd
049 Banco Security
051 Banco Falabella
052 Deutsche Bank (Chile)
053 Banco Ripley
054 Rabobank
055 Banco Consorcio
056 Banco Penta
057 Banco Paris
059 Banco Ptg Pactual
099 Banco Nuevo
152 Prepago Los Heroes
504 BBVA (Bco Bilbao Vizcaya Arg)
507 Banco del Desarrollo
672 Coopeuch
"""

# Colombia
_COL = """
000 MOVII
001 Banco de Bogotá
002 Banco Popular
006 Banco Corpbanca ITAU
007 Bancolombia
009 Citibank
012 Banco GNB Sudameris
013 BBVA
014 ITAU
019 Scotiabank Colpatria
023 Banco de Occidente
031 Bancoldex
032 Banco Caja Social
040 Banco Agrario
041 Jpmorgan Corporacion Financier
042 BNP PARIBAS
051 Davivienda
052 Banco AVVillas
053 Banco W
058 Banco Procredit Colombia
059 Bancamia
060 Inversora Pichincha S.A.
061 Bancoomeva
062 Banco Falabella S.A.
063 Banco Finandina S.A.
065 Banco Santander Negocios
066 Banco Cooperativo Coopcentral
069 Serfinanza S.A
070 LULO BANK SA
071 Banco JP Morgan
083 Compensar
084 Gestion y Contacto S.A.
087 Fedecajas
088 Simple S.A.
089 Enlace Operativo
090 Corp. Financiera Colombiana
121 Financiera Juriscoop
151 Rappi
283 Coop. Financiera de Antioquia
289 Cotrafa Cooperativa Financiera
292 Confiar Cooperativa Financiera
303 Giros y Finanzas
370 COLTEFINANCIERA
502 Banco OLD Mutual
507 NEQUI
550 DECEVAL
551 Daviplata
558 Banco Credifinanciera
637 Financiera Dann (IRIS)
685 DGCPTN
"""

# Ecuador
_ECU = """
0001 Banco Central del Ecuador
0010 Banco Pichincha C.A.
0017 Banco de Guayaquil S.A
0024 Banco City Bank
0025 Banco Machala
0029 Banco de Loja
0030 Banco del Pacifico
0032 Banco Internacional
0034 Banco Amazonas
0035 Banco del Austro
0036 Produbanco/Promerica
0037 Banco Bolivariano
0039 Comercial de Manabi
0042 Banco General Ruminahui S.A.
0043 Banco del Litoral S.A.
0059 Banco Solidario
0060 Banco Procredit S.A.
0061 Banco Capital
0065 Banco Desarrollo de Los Pueblos S.A.
0066 Banecuador B.P.
0201 Banco Delbank S.A.
"""

# Guatemala
_GTM = """
001 Banco de Guatemala
004 EL Crédito Hipotecario Nacional de Guatemala
012 Banco de los Trabajadores
013 Banco Inmobiliario, S.A.
015 Banco Industrial, S.A.
016 Banco de Desarrollo Rural, S.A.
019 Banco Internacional, S.A.
030 Citibank, N.A. Sucursal Guatemala
036 Vivibanco, S.A.
039 Banco Ficohsa Guatemala, S.A.
040 Banco Proamérica
041 Banco de Antigua, S.A.
042 Banco de América Central, Reformador S.A.
044 Banco Agromercantil de Guatemala, S.A.
045 Banco G&T Continental, S.A.
047 Banco Azteca de Guatemala, S.A.
048 Banco INV, S.A.
049 Banco Credicorp, S.A.
"""

# Panama
_PAN = """
0013 Banco Nacional de Panama
0026 Banitsmo S.A.
0039 Citibank
0071 Banco General
0181 Banco Davivienda
0372 Multibank
0408 Banco Towerbank
0424 Banco Scotibank
0518 Banco Bicsa
0712 Cooperativa de Profesionales
0767 Banco Banvivienda
0770 Banco Caja de Ahorros
0916 Banco del Pacifico (Panamá) S.A.
1067 Metrobank S.A.
1083 Banco Aliado
1106 Credicorp Bank
1151 Global Bank
1164 Bank of China
1258 Canal Bank
1384 Bac International Bank
1397 BCT Bank
1478 MMG Bank
1494 Banco ST. GEORGE
1504 Banco AZTECA
1517 Banco PICHINCHA PANAMA
1533 PRODUBank
1562 Banco DELTA
1575 Banco LAFISE PANAMÁ S.A.
1588 Banco BANESCO
1591 CAPITAL Bank
1614 Banco BANISI S.A.
1627 Banco G&T CONTINENTAL
1630 Banco MERCANTIL BANK
1656 BBP Bank S.A.
1672 Prival Bank
1685 Balboa Bank & Trust
1708 Uni Bank & Trust Inc
1724 Banco Ficohsa Panamá
1737 FPB Bank
1753 Bancolombia
1782 BI-Bank S.A
1805 B2 Atlas Bank
2503 Banco Coopeduc
2516 Banco Cooesan
2529 Banco Cacechi
2532 Banco Coeduco
2545 Coopeve
5005 Cooperativa Cristobal
5018 Banco Edioacc R.L
5021 Banco Ecaseso
5034 Banco Cooprac R.L.
9900 Banco Itaú Panamá SA
"""

# Peru
_PER = """
0001 Banco Continental (BBVA)
0002 Banco de Credito
0003 Interbank
0004 Scotiabank
0005 Banco de Comercio
0006 Banco Interamericano de Finanzas (BanBif)
0007 Banco Pichincha
0008 Citibank
0009 MiBanco
0011 Banco GNB
0012 Banco Falabella
0013 Banco Ripley
0014 Banco Santander
0015 Banco Azteca
0016 Banco Cencosud
0017 ICBC PERU BANK
0018 Banco de la Nación
0019 Caja Arequipa
0020 Caja Cusco
0021 Caja Huancayo
0022 Caja Maynas
0023 Caja Metropolitana
0024 Caja Municipal Ica
0025 Caja Piura
0026 Caja Sullana
0027 Caja Tacna
0028 Caja Trujillo
"""

# Uruguay
_URY = """
1001 BROU - Banco de la República Oriental del Uruguay
1091 Banco Hipotecario del Uruguay
1110 Banco Bandes
1113 Banco ITAU
1128 Scotiabank
1137 Banco Santander
1153 Banco Bilbao Vizcaya Argentaria
1157 HSBC Bank
1162 Banque Heritage
1205 Citibank N.A. Sucursal
1246 Banco de la Nación Argentina
1361 Banco de la Provincia de Buenos Aires
7905 PREX(FORTEX)
"""

BANKS: dict[str, dict[str, str]] = {
    "ARG": _table(_ARG),
    "CHL": _table(_CHL),
    "COL": _table(_COL),
    "ECU": _table(_ECU),
    "GTM": _table(_GTM),
    "PAN": _table(_PAN),
    "PER": _table(_PER),
    "URY": _table(_URY),
}
