"""Translations of the dashboard's developers area: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Developers": ("Desenvolvedores", "Desarrolladores"),
    "Notifications": ("Notificações", "Notificaciones"),
    "To": ("Para", "Para"),
    "Attempts": ("Tentativas", "Intentos"),
    "Answer": ("Resposta", "Respuesta"),
    "Duration": ("Duração", "Duración"),
    "Receiver's answer": ("Resposta do receptor", "Respuesta del receptor"),
    "resent": ("reenviada", "reenviada"),
    "delivered": ("entregue", "entregada"),
    "Not sent yet.": ("Ainda não enviada.", "Aún no enviada."),
    "Send again": ("Enviar de novo", "Enviar de nuevo"),
    "No notifications.": ("Nenhuma notificação.", "Sin notificaciones."),
    "A worker is sending this notification right now; try again in a moment.": (
        "Um processo está enviando esta notificação agora; tente de novo em instantes.",
        "Un proceso está enviando esta notificación ahora; inténtalo de nuevo en un momento.",
    ),
    "Sent again: the receiver answered success.": (
        "Enviada de novo: o receptor respondeu success.",
        "Enviada de nuevo: el receptor respondió success.",
    ),
    "Sent again: the receiver did not answer success.": (
        "Enviada de novo: o receptor não respondeu success.",
        "Enviada de nuevo: el receptor no respondió success.",
    ),
    # Keys
    "API keys": ("Chaves de API", "Claves de API"),
    "Hidden": ("Oculta", "Oculta"),
    "Payin header": ("Cabeçalho de payin", "Encabezado de payin"),
    "Your password": ("Sua senha", "Tu contraseña"),
    "Type your password again to see the keys. They are shown on the next page only, never kept in your session.": (
        "Digite sua senha de novo para ver as chaves. Elas aparecem só na próxima página e nunca ficam na sua sessão.",
        "Escribe tu contraseña de nuevo para ver las claves. Se muestran solo en la siguiente página y nunca se guardan en tu sesión.",
    ),
    "Show the keys": ("Mostrar as chaves", "Mostrar las claves"),
    "This is not your password.": ("Esta não é a sua senha.", "Esta no es tu contraseña."),
    "Rotate the keys": ("Trocar as chaves", "Rotar las claves"),
    "Rotate the keys now": ("Trocar as chaves agora", "Rotar las claves ahora"),
    "Makes a new security_key and app_key. The old ones are refused by the very next API request. The security key also signs payin notifications (Pagsmile-Signature) and the tokens of customers returning from hosted pages: what is signed after the rotation uses the new key.": (
        "Cria uma nova security_key e uma nova app_key. As antigas são recusadas já na próxima requisição à API. A security key também assina as notificações de payin (Pagsmile-Signature) e os tokens dos clientes que voltam das páginas hospedadas: o que for assinado depois da troca usa a nova chave.",
        "Crea una nueva security_key y una nueva app_key. Las anteriores se rechazan desde la siguiente solicitud a la API. La security key también firma las notificaciones de payin (Pagsmile-Signature) y los tokens de los clientes que regresan de las páginas alojadas: lo que se firme después de la rotación usa la nueva clave.",
    ),
    "I understand: the current security_key and app_key stop working at once.": (
        "Entendo: a security_key e a app_key atuais deixam de funcionar na hora.",
        "Entiendo: la security_key y la app_key actuales dejan de funcionar de inmediato.",
    ),
    "Tick this box to confirm.": ("Marque esta caixa para confirmar.", "Marca esta casilla para confirmar."),
    "New keys are in effect: the old security_key and app_key are refused from now on. Keep these now; they are shown only in this answer.": (
        "As novas chaves já valem: a security_key e a app_key antigas são recusadas a partir de agora. Guarde-as agora; elas aparecem só nesta resposta.",
        "Las nuevas claves ya están vigentes: la security_key y la app_key anteriores se rechazan desde ahora. Guárdalas ahora; solo se muestran en esta respuesta.",
    ),
    # Sub-pages
    "Notification deliveries": ("Entregas de notificações", "Entregas de notificaciones"),
    "API request log": ("Registro de requisições à API", "Registro de solicitudes a la API"),
    "Signature helper": ("Ajuda com assinaturas", "Ayuda con firmas"),
    # Deliveries
    "All": ("Todos", "Todos"),
    "Filter": ("Filtrar", "Filtrar"),
    "This filter is not valid. Choose one below.": (
        "Este filtro não é válido. Escolha um abaixo.",
        "Este filtro no es válido. Elige uno abajo.",
    ),
    "Newest first": ("Mais recentes primeiro", "Más recientes primero"),
    "Kind": ("Tipo", "Tipo"),
    "Target": ("Destino", "Destino"),
    "Object": ("Objeto", "Objeto"),
    "Older": ("Anteriores", "Anteriores"),
    "Notification": ("Notificação", "Notificación"),
    "Last error": ("Último erro", "Último error"),
    "Body sent": ("Corpo enviado", "Cuerpo enviado"),
    # Request log
    "Every API request made with your credentials in the last 7 days, refused ones too. Card numbers, security codes, keys, tokens and signatures are never kept.": (
        "Todas as requisições à API feitas com suas credenciais nos últimos 7 dias, inclusive as recusadas. Números de cartão, códigos de segurança, chaves, tokens e assinaturas nunca são guardados.",
        "Todas las solicitudes a la API hechas con tus credenciales en los últimos 7 días, también las rechazadas. Los números de tarjeta, códigos de seguridad, claves, tokens y firmas nunca se guardan.",
    ),
    "Path starts with": ("Caminho começa com", "La ruta empieza con"),
    "Path": ("Caminho", "Ruta"),
    "HTTP method": ("Método HTTP", "Método HTTP"),
    "Bodies": ("Corpos", "Cuerpos"),
    "(empty)": ("(vazio)", "(vacío)"),
    "Request": ("Requisição", "Solicitud"),
    "Response": ("Resposta", "Respuesta"),
    "No API requests.": ("Nenhuma requisição à API.", "Sin solicitudes a la API."),
    # Signature helper
    "Payout signature": ("Assinatura de payout", "Firma de payout"),
    "Paste a payout request body: this page shows the string the signature is computed over and the signature the server expects with your app_key, and compares it with yours.": (
        "Cole o corpo de uma requisição de payout: esta página mostra o texto sobre o qual a assinatura é calculada e a assinatura que o servidor espera com a sua app_key, e a compara com a sua.",
        "Pega el cuerpo de una solicitud de payout: esta página muestra el texto sobre el que se calcula la firma y la firma que el servidor espera con tu app_key, y la compara con la tuya.",
    ),
    "Payout request body (JSON)": ("Corpo da requisição de payout (JSON)", "Cuerpo de la solicitud de payout (JSON)"),
    "Your signature (optional)": ("Sua assinatura (opcional)", "Tu firma (opcional)"),
    "Compute": ("Calcular", "Calcular"),
    "Result": ("Resultado", "Resultado"),
    "Your signature matches.": ("Sua assinatura confere.", "Tu firma coincide."),
    "Your signature does not match.": ("Sua assinatura não confere.", "Tu firma no coincide."),
    "It is the SHA-256 of the JSON text as written: sign the canonical string below instead (whitespace and layout do not count).": (
        "Ela é o SHA-256 do texto JSON como foi escrito: assine o texto canônico abaixo (espaços e formatação não contam).",
        "Es el SHA-256 del texto JSON tal como se escribió: firma el texto canónico de abajo (los espacios y el formato no cuentan).",
    ),
    "It is the SHA-256 of the compact JSON text: sign the canonical string below instead.": (
        "Ela é o SHA-256 do texto JSON compacto: assine o texto canônico abaixo.",
        "Es el SHA-256 del texto JSON compacto: firma el texto canónico de abajo.",
    ),
    "The keys are in the order they were written: sort them by name first.": (
        "As chaves estão na ordem em que foram escritas: ordene-as pelo nome primeiro.",
        "Las claves están en el orden en que se escribieron: ordénalas primero por nombre.",
    ),
    "Keys with an empty value were kept: leave out null and empty values (keep 0 and false).": (
        "Chaves com valor vazio foram mantidas: deixe de fora valores null e vazios (mantenha 0 e false).",
        "Se mantuvieron claves con valor vacío: deja fuera los valores null y vacíos (mantén 0 y false).",
    ),
    "It was made with the payin security_key: payout requests are signed with the app_key.": (
        "Ela foi feita com a security_key de payin: requisições de payout são assinadas com a app_key.",
        "Se hizo con la security_key de payin: las solicitudes de payout se firman con la app_key.",
    ),
    "The app_key was not appended to the canonical string.": (
        "A app_key não foi acrescentada ao fim do texto canônico.",
        "La app_key no se agregó al final del texto canónico.",
    ),
    "It is not 64 hexadecimal characters: a SHA-256 in lowercase hex has 64.": (
        "Ela não tem 64 caracteres hexadecimais: um SHA-256 em hexadecimal minúsculo tem 64.",
        "No tiene 64 caracteres hexadecimales: un SHA-256 en hexadecimal en minúsculas tiene 64.",
    ),
    "We cannot tell why: check the app_key and each value against the canonical string below.": (
        "Não conseguimos dizer o motivo: confira a app_key e cada valor com o texto canônico abaixo.",
        "No podemos saber por qué: revisa la app_key y cada valor con el texto canónico de abajo.",
    ),
    "Canonical string": ("Texto canônico", "Texto canónico"),
    "Top-level keys sorted, null and empty values left out, joined as key=value with &; then the app_key is appended and the whole is hashed with SHA-256 (lowercase hex).": (
        "Chaves do primeiro nível em ordem, sem valores null e vazios, unidas como key=value com &; depois a app_key é acrescentada ao fim e o todo passa por SHA-256 (hexadecimal minúsculo).",
        "Claves del primer nivel ordenadas, sin valores null ni vacíos, unidas como key=value con &; luego se agrega la app_key al final y todo se pasa por SHA-256 (hexadecimal en minúsculas).",
    ),
    "Send its SHA-256 in the Authorization header, with your app_id in the AppId header. The expected signature is never shown here: paste yours to check it.": (
        "Envie o SHA-256 dela no cabeçalho Authorization, com o seu app_id no cabeçalho AppId. A assinatura esperada nunca aparece aqui: cole a sua para conferir.",
        "Envía su SHA-256 en el encabezado Authorization, con tu app_id en el encabezado AppId. La firma esperada nunca se muestra aquí: pega la tuya para verificarla.",
    ),
    "This is not a JSON object. Paste the request body as you send it.": (
        "Isto não é um objeto JSON. Cole o corpo da requisição como você o envia.",
        "Esto no es un objeto JSON. Pega el cuerpo de la solicitud tal como lo envías.",
    ),
    "Payin authentication": ("Autenticação de payin", "Autenticación de payin"),
    "Payin requests use HTTP Basic authentication: your app_id and security_key joined by a colon, in Base64.": (
        "As requisições de payin usam autenticação HTTP Basic: o seu app_id e a sua security_key unidos por dois-pontos, em Base64.",
        "Las solicitudes de payin usan autenticación HTTP Basic: tu app_id y tu security_key unidos por dos puntos, en Base64.",
    ),
    "To see the full header, show your keys on the API keys page.": (
        "Para ver o cabeçalho completo, mostre suas chaves na página Chaves de API.",
        "Para ver el encabezado completo, muestra tus claves en la página Claves de API.",
    ),
    "These keys were rotated already (this form was sent twice): nothing changed now. Show the keys to see the current ones.": (
        "Estas chaves já foram trocadas (este formulário foi enviado duas vezes): nada mudou agora. Mostre as chaves para ver as atuais.",
        "Estas llaves ya se rotaron (este formulario se envió dos veces): no cambió nada ahora. Muestra las llaves para ver las actuales.",
    ),
}
