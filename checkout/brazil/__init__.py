"""Brazil's codecs and document checks: BR Code (PIX), boleto, CPF/CNPJ, banks; tested against published examples."""
