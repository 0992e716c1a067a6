"""Source of the pt_BR and es_MX page translations; `python -m checkout.translations.catalog` writes the .po/.mo."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

# English text -> (Brazilian Portuguese, Mexican Spanish)
TEXTS: dict[str, tuple[str, str]] = {
    "This field is required.": ("Este campo é obrigatório.", "Este campo es obligatorio."),
    "Card number": ("Número do cartão", "Número de tarjeta"),
    "Month": ("Mês", "Mes"),
    "Year": ("Ano", "Año"),
    "Security code": ("Código de segurança", "Código de seguridad"),
    "3 or 4 digits.": ("3 ou 4 dígitos.", "3 o 4 dígitos."),
    "Name on the card": ("Nome impresso no cartão", "Nombre en la tarjeta"),
    "This card number is not valid.": ("Este número de cartão não é válido.", "Este número de tarjeta no es válido."),
    "This card has expired.": ("Este cartão está vencido.", "Esta tarjeta está vencida."),
    "How do you want to receive it?": ("Como você quer receber?", "¿Cómo quieres recibirlo?"),
    "Full name": ("Nome completo", "Nombre completo"),
    "CPF or CNPJ (digits only)": ("CPF ou CNPJ (só números)", "CPF o CNPJ (solo números)"),
    "E-mail (optional)": ("E-mail (opcional)", "Correo electrónico (opcional)"),
    "Enter a valid e-mail address.": ("Informe um e-mail válido.", "Ingresa un correo electrónico válido."),
    "Phone (optional)": ("Telefone (opcional)", "Teléfono (opcional)"),
    "PIX key type": ("Tipo de chave PIX", "Tipo de llave PIX"),
    "PIX key": ("Chave PIX", "Llave PIX"),
    "Bank": ("Banco", "Banco"),
    "Branch (4 digits)": ("Agência (4 dígitos)", "Sucursal (4 dígitos)"),
    "Account number": ("Número da conta", "Número de cuenta"),
    "Check digit": ("Dígito", "Dígito verificador"),
    "Account type": ("Tipo de conta", "Tipo de cuenta"),
    "Checking": ("Corrente", "Cheques"),
    "Savings": ("Poupança", "Ahorro"),
    "CLABE (18 digits)": ("CLABE (18 dígitos)", "CLABE (18 dígitos)"),
    "Wallet": ("Carteira digital", "Billetera digital"),
    "Wallet account or e-mail": ("Conta ou e-mail da carteira", "Cuenta o correo de la billetera"),
    "Bank transfer": ("Transferência bancária", "Transferencia bancaria"),
    "The payout could not be created (%(reason)s).": (
        "Não foi possível criar a transferência (%(reason)s).",
        "No se pudo crear la transferencia (%(reason)s).",
    ),
    "Please check this field.": ("Confira este campo.", "Revisa este campo."),
    "Secure payment page": ("Página de pagamento segura", "Página de pago segura"),
    "Sandbox": ("Ambiente de testes", "Entorno de pruebas"),
    "Copied": ("Copiado", "Copiado"),
    "Copy": ("Copiar", "Copiar"),
    "This page is not available": ("Esta página não está disponível", "Esta página no está disponible"),
    "This link has expired": ("Este link expirou", "Este enlace expiró"),
    "This payout link can no longer be used": (
        "Este link de pagamento não pode mais ser usado",
        "Este enlace de pago ya no se puede usar",
    ),
    "The store already used this payout's reference for another payout. Please go back to the store and ask for a new link.": (
        "A loja já usou a referência deste pagamento em outro pagamento. Volte à loja e peça um novo link.",
        "La tienda ya usó la referencia de este pago en otro pago. Regresa a la tienda y pide un nuevo enlace.",
    ),
    "For your security, payment links work for a limited time. Please go back to the store and start again.": (
        "Por segurança, os links de pagamento valem por tempo limitado. Volte à loja e comece de novo.",
        "Por seguridad, los enlaces de pago duran un tiempo limitado. Regresa a la tienda y empieza de nuevo.",
    ),
    "This request was not accepted": ("Este pedido não foi aceito", "Esta solicitud no fue aceptada"),
    "The form was not sent from this page. Please reload the page and try again.": (
        "O formulário não foi enviado por esta página. Recarregue a página e tente de novo.",
        "El formulario no se envió desde esta página. Recarga la página e inténtalo de nuevo.",
    ),
    "We could not find this payment": ("Não encontramos este pagamento", "No encontramos este pago"),
    "Please go back to the store and start again.": (
        "Volte à loja e comece de novo.",
        "Regresa a la tienda y empieza de nuevo.",
    ),
    "This link is not valid": ("Este link não é válido", "Este enlace no es válido"),
    "Something went wrong on our side": ("Algo deu errado do nosso lado", "Algo salió mal de nuestro lado"),
    "Nothing was charged. Please try again in a moment.": (
        "Nada foi cobrado. Tente novamente em instantes.",
        "No se hizo ningún cargo. Inténtalo de nuevo en un momento.",
    ),
    "This field must not contain NUL characters.": (
        "Este campo não pode conter caracteres NUL.",
        "Este campo no puede contener caracteres NUL.",
    ),
    "This field must be valid text.": (
        "Este campo deve conter um texto válido.",
        "Este campo debe contener texto válido.",
    ),
    "The address may be incomplete or changed. Please go back to the store and start again.": (
        "O endereço pode estar incompleto ou alterado. Volte à loja e comece de novo.",
        "La dirección puede estar incompleta o alterada. Regresa a la tienda y empieza de nuevo.",
    ),
    "Done": ("Pronto", "Listo"),
    "Card saved": ("Cartão salvo", "Tarjeta guardada"),
    "Authorization confirmed": ("Autorização confirmada", "Autorización confirmada"),
    "%(merchant)s can now charge you as you agreed.": (
        "%(merchant)s já pode cobrar você como combinado.",
        "%(merchant)s ya puede cobrarte como acordaron.",
    ),
    "Authorization not given": ("Autorização não concedida", "Autorización no otorgada"),
    "Nothing will be charged.": ("Nada será cobrado.", "No se cobrará nada."),
    "Your transfer is on its way": ("Sua transferência está a caminho", "Tu transferencia va en camino"),
    "Reference": ("Referência", "Referencia"),
    "Thank you": ("Obrigado", "Gracias"),
    "Back to %(merchant)s": ("Voltar para %(merchant)s", "Volver a %(merchant)s"),
    "Card details": ("Dados do cartão", "Datos de la tarjeta"),
    "Your card details go straight to our secure vault; %(merchant)s only receives a token.": (
        "Os dados do cartão vão direto para o nosso cofre seguro; %(merchant)s recebe apenas um token.",
        "Los datos de tu tarjeta van directo a nuestra bóveda segura; %(merchant)s solo recibe un token.",
    ),
    "Expiry date": ("Validade", "Fecha de vencimiento"),
    "Save card": ("Salvar cartão", "Guardar tarjeta"),
    "Payment": ("Pagamento", "Pago"),
    "Payment received. Thank you!": ("Pagamento recebido. Obrigado!", "Pago recibido. ¡Gracias!"),
    "This payment has expired. Please go back to the store and start again.": (
        "Este pagamento expirou. Volte à loja e comece de novo.",
        "Este pago expiró. Regresa a la tienda y empieza de nuevo.",
    ),
    "This payment was refused.": ("Este pagamento foi recusado.", "Este pago fue rechazado."),
    "Scan the QR code with your bank's app, or copy the code.": (
        "Leia o QR code com o app do seu banco ou copie o código.",
        "Escanea el código QR con la app de tu banco o copia el código.",
    ),
    "PIX QR code": ("QR code PIX", "Código QR de PIX"),
    "PIX copy and paste code": ("Código PIX copia e cola", "Código PIX para copiar y pegar"),
    "Pay this boleto at any bank, lottery outlet or in your bank's app before the due date.": (
        "Pague este boleto em qualquer banco, lotérica ou no app do seu banco até o vencimento.",
        "Paga este boleto en cualquier banco, lotería o en la app de tu banco antes del vencimiento.",
    ),
    "Boleto line": ("Linha digitável", "Línea del boleto"),
    "Due date": ("Vencimento", "Vencimiento"),
    "Make a deposit or transfer to this account:": (
        "Faça um depósito ou transferência para esta conta:",
        "Haz un depósito o transferencia a esta cuenta:",
    ),
    "Agency": ("Agência", "Sucursal"),
    "Account": ("Conta", "Cuenta"),
    "Account holder": ("Titular", "Titular"),
    "CNPJ": ("CNPJ", "CNPJ"),
    "Open %(wallet)s": ("Abrir %(wallet)s", "Abrir %(wallet)s"),
    "Pay at %(bank)s with reference %(reference)s.": (
        "Pague em %(bank)s com a referência %(reference)s.",
        "Paga en %(bank)s con la referencia %(reference)s.",
    ),
    "Time left": ("Tempo restante", "Tiempo restante"),
    "until %(when)s": ("até %(when)s", "hasta %(when)s"),
    "Waiting for your payment…": ("Aguardando o seu pagamento…", "Esperando tu pago…"),
    "Sandbox: pay now": ("Testes: pagar agora", "Pruebas: pagar ahora"),
    "Receive your money": ("Receba o seu dinheiro", "Recibe tu dinero"),
    "Receive %(amount)s": ("Receba %(amount)s", "Recibe %(amount)s"),
    "%(merchant)s is sending you money. Tell us where to deposit it.": (
        "%(merchant)s está enviando dinheiro para você. Diga onde devemos depositar.",
        "%(merchant)s te está enviando dinero. Dinos dónde depositarlo.",
    ),
    "Fee": ("Tarifa", "Comisión"),
    "paid by %(merchant)s": ("paga por %(merchant)s", "pagada por %(merchant)s"),
    "You receive": ("Você recebe", "Recibes"),
    # Spanish times end in "a.m." or "p. m.": a line that ends with one takes no period of its own ("..").
    "This page expires at %(when)s.": ("Esta página expira em %(when)s.", "Esta página vence el %(when)s"),
    "Bank account": ("Conta bancária", "Cuenta bancaria"),
    "Confirm and receive": ("Confirmar e receber", "Confirmar y recibir"),
    "Save your card": ("Salve o seu cartão", "Guarda tu tarjeta"),
    "Allow %(merchant)s to keep your card": (
        "Permitir que %(merchant)s guarde o seu cartão",
        "Permitir que %(merchant)s guarde tu tarjeta",
    ),
    "%(merchant)s will store this card with us and may charge it later, without asking you each time, for "
    "purchases and subscriptions you agree to with them.": (
        "%(merchant)s vai guardar este cartão conosco e poderá cobrá-lo depois, sem pedir a cada vez, por compras "
        "e assinaturas que você combinar com a loja.",
        "%(merchant)s guardará esta tarjeta con nosotros y podrá cobrarla después, sin preguntarte cada vez, por "
        "compras y suscripciones que acuerdes con ellos.",
    ),
    "Your card number is never shared with %(merchant)s.": (
        "O número do seu cartão nunca é compartilhado com %(merchant)s.",
        "El número de tu tarjeta nunca se comparte con %(merchant)s.",
    ),
    "You can revoke this permission at any time by asking %(merchant)s to remove the card, or by contacting your "
    "card issuer.": (
        "Você pode revogar esta permissão a qualquer momento pedindo a %(merchant)s que remova o cartão ou falando "
        "com o emissor do cartão.",
        "Puedes revocar este permiso en cualquier momento pidiendo a %(merchant)s que elimine la tarjeta o "
        "contactando al emisor de tu tarjeta.",
    ),
    "Allow": ("Permitir", "Permitir"),
    "Don't allow": ("Não permitir", "No permitir"),
    "Authorize PIX Automático": ("Autorizar PIX Automático", "Autorizar PIX Automático"),
    "Authorize automatic PIX payments": (
        "Autorize pagamentos automáticos por PIX",
        "Autoriza pagos automáticos por PIX",
    ),
    "Receiver": ("Recebedor", "Receptor"),
    "For": ("Referente a", "Concepto"),
    "Recurring payments to %(merchant)s": (
        "Pagamentos recorrentes para %(merchant)s",
        "Pagos recurrentes a %(merchant)s",
    ),
    "Frequency": ("Frequência", "Frecuencia"),
    "Weekly": ("Semanal", "Semanal"),
    "Monthly": ("Mensal", "Mensual"),
    "Quarterly": ("Trimestral", "Trimestral"),
    "Every six months": ("Semestral", "Semestral"),
    "Yearly": ("Anual", "Anual"),
    "From": ("Início", "Desde"),
    "Until": ("Fim", "Hasta"),
    "Amount per debit": ("Valor por débito", "Monto por cargo"),
    "from %(minimum)s to %(maximum)s": ("de %(minimum)s a %(maximum)s", "de %(minimum)s a %(maximum)s"),
    "Payer": ("Pagador", "Pagador"),
    "You can cancel this authorization at any time in your bank's app, under PIX Automático. Debits already "
    "scheduled for the next day may still happen.": (
        "Você pode cancelar esta autorização a qualquer momento no app do seu banco, em PIX Automático. Débitos já "
        "agendados para o dia seguinte ainda podem acontecer.",
        "Puedes cancelar esta autorización en cualquier momento en la app de tu banco, en PIX Automático. Los "
        "cargos ya programados para el día siguiente aún pueden ocurrir.",
    ),
    "Confirm in your bank's app": ("Confirme no app do seu banco", "Confirma en la app de tu banco"),
    "Scan the QR code or copy the code below into your bank's app. Your bank shows these terms again and asks you "
    "to confirm.": (
        "Leia o QR code ou copie o código abaixo no app do seu banco. O banco mostra estas condições de novo e pede "
        "a sua confirmação.",
        "Escanea el código QR o copia el código de abajo en la app de tu banco. Tu banco te muestra estas "
        "condiciones de nuevo y te pide confirmar.",
    ),
    "Waiting for your bank's confirmation…": (
        "Aguardando a confirmação do seu banco…",
        "Esperando la confirmación de tu banco…",
    ),
    "Sandbox: play the payer's bank": ("Testes: simular o banco do pagador", "Pruebas: simular el banco del pagador"),
    "Bank approves": ("Banco aprova", "El banco aprueba"),
    "Bank rejects": ("Banco recusa", "El banco rechaza"),
    # The hosted checkout (/trade/create's web_url).
    "Checkout": ("Pagamento", "Pago"),
    "How do you want to pay?": ("Como você quer pagar?", "¿Cómo quieres pagar?"),
    "Choose another way to pay": ("Escolher outra forma de pagamento", "Elegir otra forma de pago"),
    "Pay %(amount)s": ("Pagar %(amount)s", "Pagar %(amount)s"),
    "E-mail": ("E-mail", "Correo electrónico"),
    "Phone": ("Telefone", "Teléfono"),
    "Document": ("Documento", "Documento"),
    "11 or 14 digits.": ("11 ou 14 dígitos.", "11 o 14 dígitos."),
    "CEP": ("CEP", "Código postal"),
    "State": ("Estado", "Estado"),
    "City": ("Cidade", "Ciudad"),
    "Street": ("Rua", "Calle"),
    "Number": ("Número", "Número"),
    "Confirm your purchase": ("Confirme sua compra", "Confirma tu compra"),
    "Your bank asks you to confirm a payment of %(amount)s to %(merchant)s.": (
        "Seu banco pede que você confirme um pagamento de %(amount)s para %(merchant)s.",
        "Tu banco te pide confirmar un pago de %(amount)s a %(merchant)s.",
    ),
    "Sandbox 3-D Secure: no real bank is asked. Confirm to authenticate the card, or fail the authentication.": (
        "3-D Secure de teste: nenhum banco real é consultado. Confirme para autenticar o cartão ou faça a autenticação falhar.",
        "3-D Secure de prueba: no se consulta a ningún banco real. Confirma para autenticar la tarjeta o haz que la autenticación falle.",
    ),
    "Confirm": ("Confirmar", "Confirmar"),
    "Fail authentication": ("Falhar a autenticação", "Hacer fallar la autenticación"),
    "Scan the QR code with your bank's app.": (
        "Escaneie o QR code com o app do seu banco.",
        "Escanea el código QR con la app de tu banco.",
    ),
    "QR code": ("QR code", "Código QR"),
    "Transfer exactly this amount by SPEI to this CLABE:": (
        "Transfira exatamente este valor por SPEI para esta CLABE:",
        "Transfiere exactamente este monto por SPEI a esta CLABE:",
    ),
    "CLABE": ("CLABE", "CLABE"),
    "Show this code at the store's till to pay:": (
        "Mostre este código no caixa da loja para pagar:",
        "Muestra este código en la caja de la tienda para pagar:",
    ),
    "Bar code": ("Código de barras", "Código de barras"),
    "Partner code": ("Código do convênio", "Código de convenio"),
    "Complete the payment with %(method)s.": (
        "Conclua o pagamento com %(method)s.",
        "Completa el pago con %(method)s.",
    ),
    "Document number": ("Número do documento", "Número de documento"),
    "a participating store": ("uma loja participante", "una tienda participante"),
    "your bank": ("seu banco", "tu banco"),
    "Wallet account number (Todito)": (
        "Número da conta da carteira (Todito)",
        "Número de cuenta del monedero (Todito)",
    ),
    "Verification code (Todito)": ("Código de verificação (Todito)", "Código de verificación (Todito)"),
    # frames, copy, locales
    "Press Ctrl+C to copy": ("Pressione Ctrl+C para copiar", "Presiona Ctrl+C para copiar"),
    "Press ⌘C to copy": ("Pressione ⌘C para copiar", "Presiona ⌘C para copiar"),
    "Touch and hold the text to copy it": (
        "Toque e segure o texto para copiá-lo",
        "Mantén presionado el texto para copiarlo",
    ),
}

LOCALES = ("pt_BR", "es_MX")


def compiled(locale: str) -> tuple[bytes, bytes]:
    """The .po and .mo files of `locale`, byte for byte the same on every run."""
    fixed = datetime(2026, 1, 1, tzinfo=UTC)
    catalog = Catalog(locale=locale, project="checkout", fuzzy=False, creation_date=fixed, revision_date=fixed)
    index = LOCALES.index(locale)
    for english, translations in TEXTS.items():
        catalog.add(english, translations[index])
    po, mo = io.BytesIO(), io.BytesIO()
    write_po(po, catalog, sort_output=True, width=120)
    write_mo(mo, catalog)
    return po.getvalue(), mo.getvalue()


def write() -> None:
    """Write messages.po and messages.mo for each locale beside this file."""
    for locale in LOCALES:
        folder = Path(__file__).parent / locale / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        po, mo = compiled(locale)
        (folder / "messages.po").write_bytes(po)
        (folder / "messages.mo").write_bytes(mo)


if __name__ == "__main__":
    write()
