"""Source of the pt_BR and es_MX page translations; `python -m checkout.translations.catalog` writes the .po/.mo."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from . import dashboard_developers, dashboard_payments, dashboard_records, dashboard_settings

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
    "Pix key type": ("Tipo de chave Pix", "Tipo de llave Pix"),
    "Pix key": ("Chave Pix", "Llave Pix"),
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
    "Please check this field.": ("Confira este campo.", "Revisa este campo."),
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
    "CLABE": ("CLABE", "CLABE"),
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
    # Card entry, the hosted checkout and its 3-D Secure step.
    "MM/YY": ("MM/AA", "MM/AA"),
    "Enter the date as MM/YY.": ("Informe a data como MM/AA.", "Escribe la fecha como MM/AA."),
    "The month must be 01 to 12.": ("O mês deve ser de 01 a 12.", "El mes debe ser de 01 a 12."),
    "This date is too far in the future.": (
        "Esta data está longe demais no futuro.",
        "Esta fecha está demasiado lejos en el futuro.",
    ),
    "This card brand is not accepted.": (
        "Esta bandeira de cartão não é aceita.",
        "Esta marca de tarjeta no se acepta.",
    ),
    "American Express codes have 4 digits.": (
        "O código do American Express tem 4 dígitos.",
        "El código de American Express tiene 4 dígitos.",
    ),
    "This card's code has 3 digits.": (
        "O código deste cartão tem 3 dígitos.",
        "El código de esta tarjeta tiene 3 dígitos.",
    ),
    "3 digits on the back": ("3 dígitos no verso", "3 dígitos al reverso"),
    "4 digits on the front": ("4 dígitos na frente", "4 dígitos al frente"),
    "Pay to": ("Pagar a", "Pagar a"),
    "Total": ("Total", "Total"),
    "Card": ("Cartão", "Tarjeta"),
    "Pix": ("Pix", "Pix"),
    "Lotérica": ("Lotérica", "Lotérica"),
    "Bank deposit": ("Depósito bancário", "Depósito bancario"),
    "Open Finance": ("Open Finance", "Open Finance"),
    "Cash": ("Dinheiro", "Efectivo"),
    "OXXO Pay": ("OXXO Pay", "OXXO Pay"),
    # Payment pages: every method payable and printable, the order summary, the result, sandbox paste-to-pay.
    "Payment to %(merchant)s": ("Pagamento para %(merchant)s", "Pago a %(merchant)s"),
    "Paid": ("Pago", "Pagado"),
    "Not paid": ("Não pago", "No pagado"),
    "This payment was cancelled.": ("Este pagamento foi cancelado.", "Este pago fue cancelado."),
    "Amount": ("Valor", "Monto"),
    "Method": ("Forma de pagamento", "Forma de pago"),
    "Paid to": ("Pago a", "Pagado a"),
    "Store": ("Loja", "Tienda"),
    "Payment number": ("Número do pagamento", "Número de pago"),
    "%(merchant)s has been told and will confirm your order.": (
        "%(merchant)s já foi avisada e vai confirmar seu pedido.",
        "%(merchant)s ya fue avisado y confirmará tu pedido.",
    ),
    "Nothing was charged. You can go back to %(merchant)s and pay again.": (
        "Nada foi cobrado. Você pode voltar para %(merchant)s e pagar de novo.",
        "No se cobró nada. Puedes volver a %(merchant)s y pagar de nuevo.",
    ),
    "Pay with Pix": ("Pague com Pix", "Paga con Pix"),
    "Pix QR code": ("QR code Pix", "Código QR de Pix"),
    "Pix copy and paste code": ("Código Pix Copia e Cola", "Código Pix Copia e Cola"),
    "Copy Pix code": ("Copiar código Pix", "Copiar código Pix"),
    "Open your bank's app.": ("Abra o app do seu banco.", "Abre la app de tu banco."),
    "Choose Pix, then Pix Copia e Cola.": (
        "Escolha Pix e depois Pix Copia e Cola.",
        "Elige Pix y luego Pix Copia e Cola.",
    ),
    "Paste the code and confirm the payment.": (
        "Cole o código e confirme o pagamento.",
        "Pega el código y confirma el pago.",
    ),
    "Show the QR code": ("Mostrar o QR code", "Mostrar el código QR"),
    "Open your bank's app and choose Pix.": (
        "Abra o app do seu banco e escolha Pix.",
        "Abre la app de tu banco y elige Pix.",
    ),
    "Scan the QR code, or choose Pix Copia e Cola and paste the code.": (
        "Escaneie o QR code ou escolha Pix Copia e Cola e cole o código.",
        "Escanea el código QR o elige Pix Copia e Cola y pega el código.",
    ),
    "Confirm the payment. This page updates by itself.": (
        "Confirme o pagamento. Esta página se atualiza sozinha.",
        "Confirma el pago. Esta página se actualiza sola.",
    ),
    "Your payment slip": ("Sua guia de pagamento", "Tu ficha de pago"),
    "Pay this slip at any lottery outlet (lotérica) or in your bank's app before the due date.": (
        "Pague esta guia em qualquer lotérica ou no app do seu banco até o vencimento.",
        "Paga esta ficha en cualquier lotería (lotérica) o en la app de tu banco antes del vencimiento.",
    ),
    "Go to any OXXO store and say you want to pay with OXXO Pay.": (
        "Vá a qualquer loja OXXO e diga que quer pagar com OXXO Pay.",
        "Ve a cualquier tienda OXXO y di que quieres pagar con OXXO Pay.",
    ),
    "Show this bar code at the till, or give the number under it.": (
        "Mostre este código de barras no caixa ou informe o número dele.",
        "Muestra este código de barras en la caja o dicta su número.",
    ),
    "Pay the exact amount in cash and keep your receipt.": (
        "Pague o valor exato em dinheiro e guarde o comprovante.",
        "Paga el monto exacto en efectivo y guarda tu comprobante.",
    ),
    "Bar code of this payment: %(digits)s": (
        "Código de barras deste pagamento: %(digits)s",
        "Código de barras de este pago: %(digits)s",
    ),
    "Boleto line (linha digitável)": ("Linha digitável do boleto", "Línea digitable del boleto (linha digitável)"),
    "Boleto line, digits only": ("Linha digitável, só números", "Línea digitable, solo números"),
    "Print / save as PDF": ("Imprimir / salvar como PDF", "Imprimir / guardar como PDF"),
    "Download PDF": ("Baixar PDF", "Descargar PDF"),
    "Exact amount": ("Valor exato", "Monto exacto"),
    "Deposit exactly this amount; the payment is recognised by its amount and account.": (
        "Deposite exatamente este valor: o pagamento é reconhecido pelo valor e pela conta.",
        "Deposita exactamente este monto: el pago se reconoce por su monto y su cuenta.",
    ),
    "Pay with %(wallet)s": ("Pague com %(wallet)s", "Paga con %(wallet)s"),
    "The app opens with this payment; confirm it there and come back to this page.": (
        "O app abre com este pagamento; confirme lá e volte para esta página.",
        "La app se abre con este pago; confírmalo ahí y vuelve a esta página.",
    ),
    "Scan this QR code with your phone's camera to open %(wallet)s with this payment.": (
        "Escaneie este QR code com a câmera do celular para abrir %(wallet)s com este pagamento.",
        "Escanea este código QR con la cámara de tu celular para abrir %(wallet)s con este pago.",
    ),
    "QR code that opens %(wallet)s": ("QR code que abre %(wallet)s", "Código QR que abre %(wallet)s"),
    "No app on this device? Open this page's link on your phone:": (
        "Sem o app neste aparelho? Abra o link desta página no celular:",
        "¿No tienes la app en este dispositivo? Abre el enlace de esta página en tu celular:",
    ),
    "Link to this payment": ("Link deste pagamento", "Enlace de este pago"),
    "Pay by SPEI transfer": ("Pague por transferência SPEI", "Paga por transferencia SPEI"),
    "In your bank's app, make a SPEI transfer to this CLABE.": (
        "No app do seu banco, faça uma transferência SPEI para esta CLABE.",
        "En la app de tu banco, haz una transferencia SPEI a esta CLABE.",
    ),
    "Transfer exactly the amount shown, with the reference as concept.": (
        "Transfira exatamente o valor mostrado, com a referência como conceito.",
        "Transfiere exactamente el monto indicado, con la referencia como concepto.",
    ),
    "Beneficiary": ("Beneficiário", "Beneficiario"),
    "Pay with %(method)s": ("Pague com %(method)s", "Paga con %(method)s"),
    "Go to %(bank)s and say you want to make a payment.": (
        "Vá a %(bank)s e diga que quer fazer um pagamento.",
        "Ve a %(bank)s y di que quieres hacer un pago.",
    ),
    "Give the partner code, then the reference.": (
        "Informe o código do convênio e depois a referência.",
        "Da el código de convenio y luego la referencia.",
    ),
    "Give the reference.": ("Informe a referência.", "Da la referencia."),
    "Pay the exact amount and keep your receipt.": (
        "Pague o valor exato e guarde o comprovante.",
        "Paga el monto exacto y guarda tu comprobante.",
    ),
    "Pay by %(when)s": ("Pague até %(when)s", "Paga antes del %(when)s"),
    "Sandbox: play the customer": ("Testes: faça o papel do cliente", "Pruebas: haz de cliente"),
    "Paste the code, line, CLABE or reference you copied": (
        "Cole o código, a linha, a CLABE ou a referência que você copiou",
        "Pega el código, la línea, la CLABE o la referencia que copiaste",
    ),
    "Sandbox: pay with what I pasted": ("Testes: pagar com o que colei", "Pruebas: pagar con lo que pegué"),
    "This is not this payment's code. Paste the code, line, CLABE or reference shown above.": (
        "Este não é o código deste pagamento. Cole o código, a linha, a CLABE ou a referência mostrada acima.",
        "Este no es el código de este pago. Pega el código, la línea, la CLABE o la referencia que se muestra arriba.",
    ),
    "This payment can no longer be paid.": (
        "Este pagamento não pode mais ser pago.",
        "Este pago ya no se puede pagar.",
    ),
    "Lottery outlet": ("Lotérica", "Lotería"),
    "Cash payment": ("Pagamento em dinheiro", "Pago en efectivo"),
    "Digital wallet": ("Carteira digital", "Billetera digital"),
    "Show this bar code at any OXXO store's till and pay in cash.": (
        "Mostre este código de barras no caixa de qualquer loja OXXO e pague em dinheiro.",
        "Muestra este código de barras en la caja de cualquier tienda OXXO y paga en efectivo.",
    ),
    "Authorize Pix Automático": ("Autorize o Pix Automático", "Autoriza Pix Automático"),
    "Authorize automatic Pix payments": (
        "Autorize pagamentos automáticos por Pix",
        "Autoriza pagos automáticos por Pix",
    ),
    "Paste the code: your bank shows these terms again and asks you to confirm.": (
        "Cole o código: seu banco mostra estes termos de novo e pede sua confirmação.",
        "Pega el código: tu banco muestra estos términos de nuevo y te pide confirmar.",
    ),
    "%(merchant)s asks to charge you by Pix Automático. Confirm in your bank's app; the terms are below.": (
        "%(merchant)s pede para cobrar você por Pix Automático. Confirme no app do seu banco; os termos estão abaixo.",
        "%(merchant)s pide cobrarte por Pix Automático. Confirma en la app de tu banco; los términos están abajo.",
    ),
    "Terms of the authorization": ("Termos da autorização", "Términos de la autorización"),
    "You can cancel this authorization at any time in your bank's app, under Pix Automático. Debits already scheduled for the next day may still happen.": (
        "Você pode cancelar esta autorização a qualquer momento no app do seu banco, em Pix Automático. Débitos já agendados para o dia seguinte ainda podem acontecer.",
        "Puedes cancelar esta autorización en cualquier momento en la app de tu banco, en Pix Automático. Los débitos ya programados para el día siguiente aún pueden ocurrir.",
    ),
    # Payout checkout page: one pass of messages, the payee's figures, times with their zone.
    "At most %(max)d characters.": ("No máximo %(max)d caracteres.", "Máximo %(max)d caracteres."),
    "Mobile phone": ("Celular", "Celular"),
    "Random key": ("Chave aleatória", "Llave aleatoria"),
    "name@example.com": ("nome@exemplo.com.br", "nombre@ejemplo.com"),
    "Amount sent": ("Valor enviado", "Monto enviado"),
    "Fee and taxes paid by %(merchant)s.": (
        "Tarifa e impostos pagos por %(merchant)s.",
        "Comisión e impuestos pagados por %(merchant)s.",
    ),
    "Fee paid by %(merchant)s.": ("Tarifa paga por %(merchant)s.", "Comisión pagada por %(merchant)s."),
    "Fee and taxes are taken from the amount sent.": (
        "A tarifa e os impostos são descontados do valor enviado.",
        "La comisión y los impuestos se descuentan del monto enviado.",
    ),
    "The fee is taken from the amount sent.": (
        "A tarifa é descontada do valor enviado.",
        "La comisión se descuenta del monto enviado.",
    ),
    "Taxes": ("Impostos", "Impuestos"),
    "This page expires at %(time)s (%(zone)s).": (
        "Esta página expira às %(time)s (%(zone)s).",
        "Esta página vence a las %(time)s (%(zone)s).",
    ),
    "%(merchant)s cannot send this payout now. Please contact them.": (
        "%(merchant)s não pode enviar este pagamento agora. Entre em contato com a loja.",
        "%(merchant)s no puede enviar este pago ahora. Ponte en contacto con la tienda.",
    ),
    "A CLABE has 18 digits.": ("A CLABE tem 18 dígitos.", "La CLABE tiene 18 dígitos."),
    "A random key has 32 letters and digits in 5 groups, as your bank shows it.": (
        "A chave aleatória tem 32 letras e números em 5 grupos, como o seu banco mostra.",
        "La llave aleatoria tiene 32 letras y números en 5 grupos, como la muestra tu banco.",
    ),
    "An e-mail key has at most 77 characters.": (
        "A chave de e-mail tem no máximo 77 caracteres.",
        "La llave de correo electrónico tiene máximo 77 caracteres.",
    ),
    "Choose one of the options.": ("Escolha uma das opções.", "Elige una de las opciones."),
    "Choose your bank from the list.": ("Escolha o seu banco na lista.", "Elige tu banco de la lista."),
    "Enter a Brazilian mobile number with its area code.": (
        "Informe um celular brasileiro com DDD.",
        "Ingresa un celular brasileño con su código de área.",
    ),
    "Enter a phone number: up to 15 digits, + optional.": (
        "Informe um telefone: até 15 dígitos, + opcional.",
        "Ingresa un teléfono: hasta 15 dígitos, + opcional.",
    ),
    "Enter a valid CPF (11 digits) or CNPJ (14 digits).": (
        "Informe um CPF (11 dígitos) ou CNPJ (14 dígitos) válido.",
        "Ingresa un CPF (11 dígitos) o CNPJ (14 dígitos) válido.",
    ),
    "Enter the account number: 4 to 18 digits.": (
        "Informe o número da conta: de 4 a 18 dígitos.",
        "Ingresa el número de cuenta: de 4 a 18 dígitos.",
    ),
    "Enter the branch's 4 digits, without its check digit.": (
        "Informe os 4 dígitos da agência, sem o dígito verificador.",
        "Ingresa los 4 dígitos de la sucursal, sin su dígito verificador.",
    ),
    "Enter the check digit: 1 or 2 digits, or X.": (
        "Informe o dígito da conta: 1 ou 2 dígitos, ou X.",
        "Ingresa el dígito verificador: 1 o 2 dígitos, o X.",
    ),
    "Enter the e-mail address of your PayPal account.": (
        "Informe o e-mail da sua conta PayPal.",
        "Ingresa el correo electrónico de tu cuenta PayPal.",
    ),
    "Enter your full name.": ("Informe o seu nome completo.", "Ingresa tu nombre completo."),
    "The first 3 digits of this CLABE are not a bank's.": (
        "Os 3 primeiros dígitos desta CLABE não são de um banco.",
        "Los primeros 3 dígitos de esta CLABE no corresponden a un banco.",
    ),
    "This CLABE's last digit does not match: check the 18 digits.": (
        "O último dígito desta CLABE não confere: confira os 18 dígitos.",
        "El último dígito de esta CLABE no coincide: revisa los 18 dígitos.",
    ),
    "This CNPJ is not valid: enter its 14 digits.": (
        "Este CNPJ não é válido: informe os 14 dígitos.",
        "Este CNPJ no es válido: ingresa sus 14 dígitos.",
    ),
    "This CPF is not valid: enter its 11 digits.": (
        "Este CPF não é válido: informe os 11 dígitos.",
        "Este CPF no es válido: ingresa sus 11 dígitos.",
    ),
    # D1: the shell every page shares (trust line, result pages)
    "Secure payment": ("Pagamento seguro", "Pago seguro"),
    "Sandbox: no real money moves.": (
        "Ambiente de testes: nenhum dinheiro real é movimentado.",
        "Entorno de pruebas: no se mueve dinero real.",
    ),
    "What happens next": ("Próximos passos", "Qué sigue"),
    "Expires": ("Validade", "Vence"),
    "Sent to": ("Enviado para", "Enviado a"),
    "%(merchant)s receives a token for this card, never its number.": (
        "%(merchant)s recebe um token deste cartão, nunca o número dele.",
        "%(merchant)s recibe un token de esta tarjeta, nunca su número.",
    ),
    "%(merchant)s can now charge this card for what you agree with them.": (
        "%(merchant)s já pode cobrar neste cartão o que você combinar com eles.",
        "%(merchant)s ya puede cobrar en esta tarjeta lo que acuerdes con ellos.",
    ),
    "Each debit shows in your bank's app before it is made.": (
        "Cada débito aparece no app do seu banco antes de ser feito.",
        "Cada cargo aparece en la app de tu banco antes de hacerse.",
    ),
    "You can go back to %(merchant)s and start again whenever you like.": (
        "Você pode voltar para %(merchant)s e começar de novo quando quiser.",
        "Puedes volver a %(merchant)s y empezar de nuevo cuando quieras.",
    ),
    "The money usually arrives in minutes.": (
        "O dinheiro costuma chegar em minutos.",
        "El dinero suele llegar en minutos.",
    ),
    "The money usually arrives within one business day.": (
        "O dinheiro costuma chegar em até um dia útil.",
        "El dinero suele llegar en un día hábil.",
    ),
    "If the receiving bank refuses it, %(merchant)s will let you know.": (
        "Se o banco de destino recusar, %(merchant)s avisará você.",
        "Si el banco de destino lo rechaza, %(merchant)s te avisará.",
    ),
    "The money has arrived in your account.": ("O dinheiro chegou na sua conta.", "El dinero llegó a tu cuenta."),
    "The receiving bank refused the transfer. Please check your details with %(merchant)s.": (
        "O banco de destino recusou a transferência. Confira seus dados com %(merchant)s.",
        "El banco de destino rechazó la transferencia. Revisa tus datos con %(merchant)s.",
    ),
    "The transfer was not made": ("A transferência não foi feita", "La transferencia no se realizó"),
    "Transfer completed": ("Transferência concluída", "Transferencia completada"),
    # frames, copy, locales
    "Press Ctrl+C to copy": ("Pressione Ctrl+C para copiar", "Presiona Ctrl+C para copiar"),
    "Press ⌘C to copy": ("Pressione ⌘C para copiar", "Presiona ⌘C para copiar"),
    "Touch and hold the text to copy it": (
        "Toque e segure o texto para copiá-lo",
        "Mantén presionado el texto para copiarlo",
    ),
    # merchant dashboard
    "Dashboard": ("Painel", "Panel"),
    "Skip to content": ("Pular para o conteúdo", "Saltar al contenido"),
    "Log in": ("Entrar", "Iniciar sesión"),
    "Log out": ("Sair", "Cerrar sesión"),
    "Sign up": ("Criar conta", "Registrarse"),
    "Log in to your dashboard": ("Entre no seu painel", "Inicia sesión en tu panel"),
    "Password": ("Senha", "Contraseña"),
    "Password (at least 10 characters)": ("Senha (mínimo de 10 caracteres)", "Contraseña (mínimo 10 caracteres)"),
    "Use at least 10 characters.": ("Use pelo menos 10 caracteres.", "Usa al menos 10 caracteres."),
    "Shop name": ("Nome da loja", "Nombre de la tienda"),
    "Shop": ("Loja", "Tienda"),
    "The e-mail or the password is not right.": (
        "O e-mail ou a senha não está correto.",
        "El correo o la contraseña no es correcto.",
    ),
    "No account yet?": ("Ainda não tem conta?", "¿Aún no tienes cuenta?"),
    "Sign up for a sandbox account": ("Crie uma conta de testes", "Crea una cuenta de pruebas"),
    "Already have an account?": ("Já tem uma conta?", "¿Ya tienes una cuenta?"),
    "Create a sandbox account": ("Criar uma conta de testes", "Crear una cuenta de pruebas"),
    "Create account": ("Criar conta", "Crear cuenta"),
    "A test merchant with its own API credentials. No real money moves in the sandbox.": (
        "Um lojista de teste com suas próprias credenciais de API. Nenhum dinheiro real circula no ambiente de testes.",
        "Un comercio de prueba con sus propias credenciales de API. En el entorno de pruebas no se mueve dinero real.",
    ),
    "This form expired. Please send it again.": (
        "Este formulário expirou. Envie-o novamente.",
        "Este formulario expiró. Envíalo de nuevo.",
    ),
    "This e-mail address already has an account. Log in instead.": (
        "Este e-mail já tem uma conta. Entre com ele.",
        "Este correo ya tiene una cuenta. Inicia sesión con él.",
    ),
    "Your credentials": ("Suas credenciais", "Tus credenciales"),
    "Your API credentials": ("Suas credenciais de API", "Tus credenciales de API"),
    "Keep these credentials now: the security key and the app key are shown only once.": (
        "Guarde estas credenciais agora: a security key e a app key são mostradas só uma vez.",
        "Guarda estas credenciales ahora: la security key y la app key se muestran solo una vez.",
    ),
    "app_id and security_key sign in to the payin API (Basic auth); app_id and app_key sign payout requests.": (
        "app_id e security_key autenticam na API de recebimentos (Basic auth); app_id e app_key assinam os pagamentos.",
        "app_id y security_key autentican en la API de cobros (Basic auth); app_id y app_key firman los pagos.",
    ),
    "Go to the dashboard": ("Ir para o painel", "Ir al panel"),
    "Too many attempts": ("Tentativas demais", "Demasiados intentos"),
    "Logging in is paused after too many failed attempts. Try again in %(minutes)s minutes, after %(time)s UTC.": (
        "O acesso foi pausado após tentativas demais. Tente de novo em %(minutes)s minutos, depois de %(time)s UTC.",
        "El acceso se pausó tras demasiados intentos fallidos. Inténtalo de nuevo en %(minutes)s minutos, después de %(time)s UTC.",
    ),
    "Back to log in": ("Voltar para entrar", "Volver a iniciar sesión"),
    "Balances": ("Saldos", "Saldos"),
    "No balance yet.": ("Ainda sem saldo.", "Aún sin saldo."),
    "Sandbox clock": ("Relógio de testes", "Reloj de pruebas"),
    "Business time": ("Hora do negócio", "Hora del negocio"),
    "+1 hour": ("+1 hora", "+1 hora"),
    "+1 day": ("+1 dia", "+1 día"),
    "Moves only this merchant's clock, as POST /sandbox/clock does.": (
        "Move só o relógio deste lojista, como POST /sandbox/clock.",
        "Mueve solo el reloj de este comercio, como POST /sandbox/clock.",
    ),
    "Recent payments": ("Pagamentos recentes", "Pagos recientes"),
    "Recent payouts": ("Repasses recentes", "Dispersiones recientes"),
    "The 10 most recent payments": ("Os 10 pagamentos mais recentes", "Los 10 pagos más recientes"),
    "The 10 most recent payouts": ("Os 10 repasses mais recentes", "Las 10 dispersiones más recientes"),
    "No payments yet.": ("Ainda sem pagamentos.", "Aún no hay pagos."),
    "No payouts yet.": ("Ainda sem repasses.", "Aún no hay dispersiones."),
    "Status": ("Situação", "Estado"),
    "Time (UTC)": ("Hora (UTC)", "Hora (UTC)"),
    "Overview": ("Visão geral", "Resumen"),
    "Payouts": ("Repasses", "Dispersiones"),
    "Page not found": ("Página não encontrada", "Página no encontrada"),
    "This request is too large": ("Este pedido é grande demais", "Esta solicitud es demasiado grande"),
    "Too many requests": ("Tentativas demais", "Demasiados intentos"),
    "Something went wrong": ("Algo deu errado", "Algo salió mal"),
    "This account has nothing at this address.": (
        "Esta conta não tem nada neste endereço.",
        "Esta cuenta no tiene nada en esta dirección.",
    ),
    "Nothing was saved: what was sent is larger than 1 MiB.": (
        "Nada foi salvo: o que foi enviado passa de 1 MiB.",
        "No se guardó nada: lo enviado pasa de 1 MiB.",
    ),
    "Nothing was changed. Try again in a moment.": (
        "Nada foi alterado. Tente de novo em instantes.",
        "No se cambió nada. Inténtalo de nuevo en un momento.",
    ),
    "Back to the overview": ("Voltar à visão geral", "Volver al resumen"),
}

# The dashboard's areas keep their texts in modules of their own; one English text has one translation.
for _area in (dashboard_payments, dashboard_records, dashboard_developers, dashboard_settings):
    for _english, _translated in _area.TEXTS.items():
        if TEXTS.setdefault(_english, _translated) != _translated:
            raise ValueError(f"{_english!r} is translated twice, differently")

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
