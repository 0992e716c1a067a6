"""Translations of the dashboard's vaults and payouts pages: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

# "Vaults" is the API's word; a merchant in Brazil or Mexico knows them as saved cards and Pix Automático
# authorizations, so the navigation says that. A payout is a "repasse" (pt-BR) and a "dispersión" (es-MX),
# as the overview already says.
TEXTS: dict[str, tuple[str, str]] = {
    "Vaults": ("Cartões e Pix Automático", "Tarjetas y Pix Automático"),
    "Vault": ("Cartão ou autorização", "Tarjeta o autorización"),
    "Cards on file and Pix Automático authorizations of your customers, newest first.": (
        "Cartões salvos e autorizações de Pix Automático dos seus clientes, dos mais recentes aos mais antigos.",
        "Tarjetas guardadas y autorizaciones de Pix Automático de tus clientes, de las más recientes a las más antiguas.",
    ),
    "Filter vaults": ("Filtrar cartões e autorizações", "Filtrar tarjetas y autorizaciones"),
    "Apply filters": ("Aplicar filtros", "Aplicar filtros"),
    "Clear filters": ("Limpar filtros", "Borrar filtros"),
    "Vaults, newest first, 50 per page": (
        "Cartões e autorizações, dos mais recentes, 50 por página",
        "Tarjetas y autorizaciones, de las más recientes, 50 por página",
    ),
    "Vault token": ("Token (vault_token)", "Token (vault_token)"),
    "Type": ("Tipo", "Tipo"),
    "Card or plan": ("Cartão ou plano", "Tarjeta o plan"),
    "Created (UTC)": ("Criado em (UTC)", "Creado (UTC)"),
    "No vaults match.": ("Nenhum cartão ou autorização encontrado.", "No se encontró ninguna tarjeta ni autorización."),
    "All vaults": ("Todos os cartões e autorizações", "Todas las tarjetas y autorizaciones"),
    "Card on file": ("Cartão salvo", "Tarjeta guardada"),
    "History": ("Histórico", "Historial"),
    "created": ("criado", "creado"),
    "The authorization page expires at %(time)s UTC.": (
        "A página de autorização expira às %(time)s UTC.",
        "La página de autorización vence a las %(time)s UTC.",
    ),
    "A vault keeps when it was created, activated and last changed; its notifications below show every decision "
    "sent to you.": (
        "Guardamos quando foi criado, ativado e alterado pela última vez; as notificações abaixo mostram cada decisão "
        "enviada a você.",
        "Guardamos cuándo se creó, se activó y cambió por última vez; las notificaciones de abajo muestran cada "
        "decisión que se te envió.",
    ),
    "Sandbox: the decision": ("Testes: a decisão", "Pruebas: la decisión"),
    "Act as the payer's bank: approve or reject this Pix Automático authorization.": (
        "Faça o papel do banco do pagador: aprove ou recuse esta autorização de Pix Automático.",
        "Actúa como el banco del pagador: aprueba o rechaza esta autorización de Pix Automático.",
    ),
    "Act as the customer: give or refuse consent to keep this card on file.": (
        "Faça o papel do cliente: permita ou não que este cartão fique salvo.",
        "Actúa como el cliente: permite o no que esta tarjeta quede guardada.",
    ),
    "Approve": ("Aprovar", "Aprobar"),
    "Reject": ("Recusar", "Rechazar"),
    "The same as POST /sandbox/vaults/{vault_token}/approve or /reject.": (
        "O mesmo que POST /sandbox/vaults/{vault_token}/approve ou /reject.",
        "Lo mismo que POST /sandbox/vaults/{vault_token}/approve o /reject.",
    ),
    "Void this card": ("Cancelar este cartão", "Cancelar esta tarjeta"),
    "A voided card can no longer be charged. This cannot be undone. The same as POST /vault/void.": (
        "Um cartão cancelado não pode mais ser cobrado. Não dá para desfazer. O mesmo que POST /vault/void.",
        "Una tarjeta cancelada ya no se puede cobrar. No se puede deshacer. Lo mismo que POST /vault/void.",
    ),
    "Void the card": ("Cancelar cartão", "Cancelar tarjeta"),
    "I understand that this card can no longer be charged.": (
        "Entendo que este cartão não poderá mais ser cobrado.",
        "Entiendo que esta tarjeta ya no se podrá cobrar.",
    ),
    "Tick this box to void the card.": (
        "Marque esta caixa para cancelar o cartão.",
        "Marca esta casilla para cancelar la tarjeta.",
    ),
    "Payments charged on this vault": (
        "Pagamentos cobrados com este cartão ou autorização",
        "Pagos cobrados con esta tarjeta o autorización",
    ),
    "The 50 most recent payments": ("Os 50 pagamentos mais recentes", "Los 50 pagos más recientes"),
    "Newest first": ("Mais recentes primeiro", "Más recientes primero"),
    "Debit date": ("Data do débito", "Fecha del cargo"),
    "Nothing charged on this vault yet.": ("Nada cobrado ainda.", "Aún no se ha cobrado nada."),
    "The vault is now %(status)s.": ("A situação agora é %(status)s.", "El estado ahora es %(status)s."),
    "Filter payouts": ("Filtrar repasses", "Filtrar dispersiones"),
    "Payouts, newest first, 50 per page": (
        "Repasses, dos mais recentes, 50 por página",
        "Dispersiones, de las más recientes, 50 por página",
    ),
    "Amount arriving": ("Valor que chega", "Monto que llega"),
    "No payouts match.": ("Nenhum repasse encontrado.", "No se encontró ninguna dispersión."),
    "Payout": ("Repasse", "Dispersión"),
    "All payouts": ("Todos os repasses", "Todas las dispersiones"),
    "Amounts": ("Valores", "Montos"),
    "As POST /api/payout/detail answers them.": (
        "Como POST /api/payout/detail responde.",
        "Como responde POST /api/payout/detail.",
    ),
    "Payee": ("Favorecido", "Beneficiario"),
    "Name": ("Nome", "Nombre"),
    "Timeline": ("Linha do tempo", "Cronología"),
    "Created, each refund and the last change (the payout keeps no other history; the notifications below show "
    "every status sent to you)": (
        "Criação, cada devolução e a última alteração (o repasse não guarda outro histórico; as notificações abaixo "
        "mostram cada situação enviada a você)",
        "Creación, cada devolución y el último cambio (la dispersión no guarda otro historial; las notificaciones de "
        "abajo muestran cada estado que se te envió)",
    ),
    "Note": ("Observação", "Nota"),
    "Refund by the recipient's bank": ("Devolução pelo banco do favorecido", "Devolución del banco del beneficiario"),
    "Refunds by the recipient's bank": (
        "Devoluções pelo banco do favorecido",
        "Devoluciones del banco del beneficiario",
    ),
    "Refunded %(refunded)s of %(total)s; %(left)s left": (
        "Devolvido %(refunded)s de %(total)s; restam %(left)s",
        "Devuelto %(refunded)s de %(total)s; quedan %(left)s",
    ),
    "Back to your balance": ("De volta ao seu saldo", "De vuelta a tu saldo"),
    "No refunds by the recipient's bank.": (
        "Nenhuma devolução do banco do recebedor.",
        "Sin devoluciones del banco del beneficiario.",
    ),
    "Sandbox: the recipient's bank sends money back": (
        "Testes: o banco do favorecido devolve o dinheiro",
        "Pruebas: el banco del beneficiario devuelve el dinero",
    ),
    "In %(currency)s, up to %(left)s.": ("Em %(currency)s, até %(left)s.", "En %(currency)s, hasta %(left)s."),
    "This method is only refunded in full: leave the amount empty.": (
        "Esta forma só é devolvida por inteiro: deixe o valor em branco.",
        "Este método solo se devuelve completo: deja el monto vacío.",
    ),
    "The same as POST /sandbox/payouts/{transaction_id}/refund.": (
        "O mesmo que POST /sandbox/payouts/{transaction_id}/refund.",
        "Lo mismo que POST /sandbox/payouts/{transaction_id}/refund.",
    ),
    "Record the refund": ("Registrar a devolução", "Registrar la devolución"),
    "Amount (empty: all that is left)": ("Valor (em branco: todo o restante)", "Monto (vacío: todo lo que queda)"),
    "Enter an amount such as 12.34.": ("Informe um valor como 12.34.", "Ingresa un monto como 12.34."),
    "The recipient's bank sent back %(amount)s %(currency)s (%(refunded_id)s); the payout is now %(status)s.": (
        "O banco do favorecido devolveu %(amount)s %(currency)s (%(refunded_id)s); o repasse agora está %(status)s.",
        "El banco del beneficiario devolvió %(amount)s %(currency)s (%(refunded_id)s); la dispersión ahora está "
        "%(status)s.",
    ),
    "The service refused this action.": ("O serviço recusou esta ação.", "El servicio rechazó esta acción."),
    "Pages": ("Páginas", "Páginas"),
    "Back to the newest": ("Voltar aos mais recentes", "Volver a los más recientes"),
    "Older ones": ("Mais antigos", "Más antiguos"),
    "This page link is not valid any more. Start again from the newest.": (
        "Este link de página não vale mais. Comece de novo pelos mais recentes.",
        "Este enlace de página ya no es válido. Empieza de nuevo por los más recientes.",
    ),
    "This is too long.": ("Isto é longo demais.", "Esto es demasiado largo."),
    "All": ("Todos", "Todos"),
    "Choose one of the listed values.": ("Escolha um dos valores da lista.", "Elige uno de los valores de la lista."),
    "Enter a date as YYYY-MM-DD.": ("Informe a data como AAAA-MM-DD.", "Ingresa la fecha como AAAA-MM-DD."),
    "Created from (UTC)": ("Criado a partir de (UTC)", "Creado desde (UTC)"),
    "Created until (UTC)": ("Criado até (UTC)", "Creado hasta (UTC)"),
    "transaction_id or custom_code": ("transaction_id ou custom_code", "transaction_id o custom_code"),
    "The last day must not be before the first.": (
        "O último dia não pode ser antes do primeiro.",
        "El último día no puede ser anterior al primero.",
    ),
}
