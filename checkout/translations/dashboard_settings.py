"""Translations of the dashboard's settings area: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Settings": ("Configurações", "Configuración"),
    # Logo and previews
    "Logo": ("Logotipo", "Logotipo"),
    "What a customer sees at the top of a payment page, with the logo and shop name saved now.": (
        "O que o cliente vê no topo de uma página de pagamento, com o logotipo e o nome da loja salvos agora.",
        "Lo que el cliente ve en la parte superior de una página de pago, con el logotipo y el nombre de la tienda guardados ahora.",
    ),
    "Payment page header on a computer": (
        "Cabeçalho da página de pagamento em um computador",
        "Encabezado de la página de pago en una computadora",
    ),
    "Payment page header on a phone (390 pixels wide)": (
        "Cabeçalho da página de pagamento em um celular (390 pixels de largura)",
        "Encabezado de la página de pago en un celular (390 píxeles de ancho)",
    ),
    "Computer": ("Computador", "Computadora"),
    "Phone (390 pixels wide)": ("Celular (390 pixels de largura)", "Celular (390 píxeles de ancho)"),
    "Preview": ("Prévia", "Vista previa"),
    "The payment itself appears here.": ("O pagamento em si aparece aqui.", "El pago en sí aparece aquí."),
    "Logo file (PNG or JPEG, at most 512 KiB)": (
        "Arquivo do logotipo (PNG ou JPEG, até 512 KiB)",
        "Archivo del logotipo (PNG o JPEG, máximo 512 KiB)",
    ),
    "Kept as a PNG scaled to fit 256 x 128 pixels, without the file's metadata. On a phone, a logo more than "
    "twice as wide as it is tall shows as the shop's initials.": (
        "Guardado como PNG reduzido para caber em 256 x 128 pixels, sem os metadados do arquivo. No celular, um "
        "logotipo com mais do dobro de largura que de altura aparece como as iniciais da loja.",
        "Se guarda como PNG reducido para caber en 256 x 128 píxeles, sin los metadatos del archivo. En un celular, "
        "un logotipo más de dos veces más ancho que alto se muestra como las iniciales de la tienda.",
    ),
    "Upload logo": ("Enviar logotipo", "Subir logotipo"),
    "Remove logo": ("Remover logotipo", "Quitar logotipo"),
    "Logo saved.": ("Logotipo salvo.", "Logotipo guardado."),
    "Logo removed: the payment pages show the shop's initials.": (
        "Logotipo removido: as páginas de pagamento mostram as iniciais da loja.",
        "Logotipo quitado: las páginas de pago muestran las iniciales de la tienda.",
    ),
    "The file is larger than 512 KiB.": ("O arquivo tem mais de 512 KiB.", "El archivo pesa más de 512 KiB."),
    "The file must be a PNG or JPEG image.": (
        "O arquivo precisa ser uma imagem PNG ou JPEG.",
        "El archivo debe ser una imagen PNG o JPEG.",
    ),
    "The image is too large: at most 4096 x 4096 pixels.": (
        "A imagem é grande demais: no máximo 4096 x 4096 pixels.",
        "La imagen es demasiado grande: máximo 4096 x 4096 píxeles.",
    ),
    "The file is not a readable PNG or JPEG image.": (
        "O arquivo não é uma imagem PNG ou JPEG legível.",
        "El archivo no es una imagen PNG o JPEG legible.",
    ),
    # Return hosts and frame origins
    "Return hosts and frame origins": ("Hosts de retorno e origens de frame", "Hosts de retorno y orígenes de frame"),
    "Return hosts, one per line": ("Hosts de retorno, um por linha", "Hosts de retorno, uno por línea"),
    "Frame origins, one per line": ("Origens de frame, uma por linha", "Orígenes de frame, uno por línea"),
    "Host names a return_url may point to, such as shop.example. Outside the sandbox, any other host is refused.": (
        "Nomes de host para onde um return_url pode apontar, como shop.example. Fora do sandbox, qualquer outro "
        "host é recusado.",
        "Nombres de host a los que puede apuntar un return_url, como shop.example. Fuera del sandbox, cualquier "
        "otro host se rechaza.",
    ),
    "Origins allowed to show the payment pages in a frame, such as https://shop.example.": (
        "Origens que podem mostrar as páginas de pagamento em um frame, como https://shop.example.",
        "Orígenes que pueden mostrar las páginas de pago en un frame, como https://shop.example.",
    ),
    "Save hosts and origins": ("Salvar hosts e origens", "Guardar hosts y orígenes"),
    "Return hosts and frame origins saved.": (
        "Hosts de retorno e origens de frame salvos.",
        "Hosts de retorno y orígenes de frame guardados.",
    ),
    "At most %(count)d lines.": ("No máximo %(count)d linhas.", "Máximo %(count)d líneas."),
    "Line %(line)d: “%(value)s” is not a host name such as shop.example.": (
        "Linha %(line)d: “%(value)s” não é um nome de host como shop.example.",
        "Línea %(line)d: “%(value)s” no es un nombre de host como shop.example.",
    ),
    "Line %(line)d: “%(value)s” is not an origin such as https://shop.example (scheme, host and port only).": (
        "Linha %(line)d: “%(value)s” não é uma origem como https://shop.example (só esquema, host e porta).",
        "Línea %(line)d: “%(value)s” no es un origen como https://shop.example (solo esquema, host y puerto).",
    ),
    # Default language
    "Language": ("Idioma", "Idioma"),
    "Default language of the payment pages": (
        "Idioma padrão das páginas de pagamento",
        "Idioma predeterminado de las páginas de pago",
    ),
    "The customer's browser language": ("O idioma do navegador do cliente", "El idioma del navegador del cliente"),
    "Used when neither the payment link (?language=) nor the payment's country sets one.": (
        "Usado quando nem o link de pagamento (?language=) nem o país do pagamento definem um.",
        "Se usa cuando ni el enlace de pago (?language=) ni el país del pago definen uno.",
    ),
    "Save language": ("Salvar idioma", "Guardar idioma"),
    "Default language saved.": ("Idioma padrão salvo.", "Idioma predeterminado guardado."),
    "Choose one of the languages.": ("Escolha um dos idiomas.", "Elige uno de los idiomas."),
    # The overview's balance chart
    "Balance history": ("Histórico de saldo", "Historial de saldo"),
    "No balance in the last 30 days.": ("Nenhum saldo nos últimos 30 dias.", "Sin saldo en los últimos 30 días."),
    "End-of-day available balance, last 30 days": (
        "Saldo disponível no fim de cada dia, últimos 30 dias",
        "Saldo disponible al cierre de cada día, últimos 30 días",
    ),
    "One line per currency; the same figures are in the table below.": (
        "Uma linha por moeda; os mesmos valores estão na tabela abaixo.",
        "Una línea por moneda; las mismas cifras están en la tabla de abajo.",
    ),
    "Day (UTC)": ("Dia (UTC)", "Día (UTC)"),
    "Show the figures as a table": ("Mostrar os valores em uma tabela", "Mostrar las cifras en una tabla"),
}
