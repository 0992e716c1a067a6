"""Translations of the dashboard's payments list and a trade's page: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Payments": ("Pagamentos", "Pagos"),
    # The list and its filters
    "Filter payments": ("Filtrar pagamentos", "Filtrar pagos"),
    "Any status": ("Qualquer situação", "Cualquier estado"),
    "Choose a status from the list.": ("Escolha uma situação da lista.", "Elige un estado de la lista."),
    "Any method": ("Qualquer forma", "Cualquier forma"),
    "Choose a method from the list.": (
        "Escolha uma forma de pagamento da lista.",
        "Elige una forma de pago de la lista.",
    ),
    "From (UTC)": ("De (UTC)", "Desde (UTC)"),
    "To (UTC)": ("Até (UTC)", "Hasta (UTC)"),
    "trade_no or out_trade_no": ("trade_no ou out_trade_no", "trade_no u out_trade_no"),
    "Exact number": ("Número exato", "Número exacto"),
    "At most 64 characters.": ("No máximo 64 caracteres.", "Máximo 64 caracteres."),
    "At most 128 characters.": ("No máximo 128 caracteres.", "Máximo 128 caracteres."),
    "Enter a date as YYYY-MM-DD.": ("Informe a data como AAAA-MM-DD.", "Ingresa la fecha como AAAA-MM-DD."),
    "The end date must not be before the start date.": (
        "A data final não pode ser anterior à inicial.",
        "La fecha final no puede ser anterior a la inicial.",
    ),
    "Show payments": ("Mostrar pagamentos", "Mostrar pagos"),
    "Clear filters": ("Limpar filtros", "Borrar filtros"),
    "This page link is not valid. Start again from the newest payments.": (
        "Este link de página não é válido. Comece de novo pelos pagamentos mais recentes.",
        "Este enlace de página no es válido. Empieza de nuevo por los pagos más recientes.",
    ),
    "Newest payments": ("Pagamentos mais recentes", "Pagos más recientes"),
    "Payments, newest first": ("Pagamentos, do mais recente ao mais antigo", "Pagos, del más reciente al más antiguo"),
    "Older payments, newest first": (
        "Pagamentos anteriores, do mais recente ao mais antigo",
        "Pagos anteriores, del más reciente al más antiguo",
    ),
    "Created (UTC)": ("Criado em (UTC)", "Creado (UTC)"),
    "No payments match these filters.": (
        "Nenhum pagamento corresponde a estes filtros.",
        "Ningún pago coincide con estos filtros.",
    ),
    "No older payments.": ("Não há pagamentos anteriores.", "No hay pagos anteriores."),
    "No payments yet. Payments appear here as soon as the API creates them.": (
        "Ainda não há pagamentos. Eles aparecem aqui assim que a API os cria.",
        "Todavía no hay pagos. Aparecen aquí en cuanto la API los crea.",
    ),
    "Pages of payments": ("Páginas de pagamentos", "Páginas de pagos"),
    "Newest": ("Mais recentes", "Más recientes"),
    "Older": ("Anteriores", "Anteriores"),
    # A trade's page
    "All payments": ("Todos os pagamentos", "Todos los pagos"),
    "Summary": ("Resumo", "Datos del pago"),
    "Authorized": ("Autorizado", "Autorizado"),
    "Currency": ("Moeda", "Moneda"),
    "Refunded": ("Reembolsado", "Reembolsado"),
    "Refundable": ("Reembolsável", "Reembolsable"),
    "Subject": ("Descrição", "Concepto"),
    "Updated (UTC)": ("Atualizado em (UTC)", "Actualizado (UTC)"),
    "Expires (UTC)": ("Expira em (UTC)", "Vence (UTC)"),
    "Customer": ("Cliente", "Cliente"),
    "Status history": ("Histórico de situações", "Historial de estados"),
    "Refunds": ("Reembolsos", "Reembolsos"),
    "Refunds of this payment, oldest first": (
        "Reembolsos deste pagamento, do mais antigo ao mais recente",
        "Reembolsos de este pago, del más antiguo al más reciente",
    ),
    "Reason": ("Motivo", "Motivo"),
    "No refunds.": ("Nenhum reembolso.", "Sin reembolsos."),
    "Payment not found": ("Pagamento não encontrado", "Pago no encontrado"),
    "This account has no payment with this number.": (
        "Esta conta não tem nenhum pagamento com este número.",
        "Esta cuenta no tiene ningún pago con este número.",
    ),
    "The form was not sent from this page, or it is too old. Nothing was done. Reload the page and try again.": (
        "O formulário não foi enviado desta página, ou é antigo demais. Nada foi feito. Recarregue a página e tente de novo.",
        "El formulario no se envió desde esta página, o es demasiado antiguo. No se hizo nada. Recarga la página e inténtalo de nuevo.",
    ),
    # Actions
    "Actions": ("Ações", "Acciones"),
    "Refund": ("Reembolsar", "Reembolsar"),
    "Amount to refund": ("Valor a reembolsar", "Monto a reembolsar"),
    "Reason (optional)": ("Motivo (opcional)", "Motivo (opcional)"),
    "Up to %(amount)s %(currency)s, like 10.50.": (
        "Até %(amount)s %(currency)s, no formato 10.50.",
        "Hasta %(amount)s %(currency)s, con el formato 10.50.",
    ),
    "This method refunds only the whole amount, at once.": (
        "Esta forma de pagamento só reembolsa o valor total, de uma vez.",
        "Esta forma de pago solo reembolsa el monto total, de una vez.",
    ),
    "Enter an amount like 10.50.": ("Informe um valor no formato 10.50.", "Ingresa un monto con el formato 10.50."),
    "Capture": ("Capturar", "Capturar"),
    "Amount to capture (empty: all of it)": ("Valor a capturar (vazio: tudo)", "Monto a capturar (vacío: todo)"),
    "Up to %(amount)s %(currency)s; the rest is released.": (
        "Até %(amount)s %(currency)s; o restante é liberado.",
        "Hasta %(amount)s %(currency)s; el resto se libera.",
    ),
    "Void": ("Cancelar autorização", "Anular autorización"),
    "Releases the whole authorization; the payment becomes CANCEL.": (
        "Libera toda a autorização; o pagamento passa a CANCEL.",
        "Libera toda la autorización; el pago pasa a CANCEL.",
    ),
    "Void the authorization": ("Cancelar a autorização", "Anular la autorización"),
    "As POST /sandbox/trades/%(trade_no)s/pay does.": (
        "Como faz POST /sandbox/trades/%(trade_no)s/pay.",
        "Como lo hace POST /sandbox/trades/%(trade_no)s/pay.",
    ),
    "The customer pays": ("O cliente paga", "El cliente paga"),
    # Answers to actions
    "Enter an amount above zero with at most %(places)d decimal places in %(currency)s.": (
        "Informe um valor acima de zero com no máximo %(places)d casas decimais em %(currency)s.",
        "Ingresa un monto mayor que cero con máximo %(places)d decimales en %(currency)s.",
    ),
    "The amount is more than what can still be refunded.": (
        "O valor é maior do que ainda pode ser reembolsado.",
        "El monto es mayor de lo que aún se puede reembolsar.",
    ),
    "The amount is more than the authorized amount.": (
        "O valor é maior que o valor autorizado.",
        "El monto es mayor que el monto autorizado.",
    ),
    "This action is not allowed while the payment is %(status)s.": (
        "Esta ação não é permitida enquanto o pagamento está %(status)s.",
        "Esta acción no está permitida mientras el pago está en %(status)s.",
    ),
    "This payment is not paid by the customer this way.": (
        "Este pagamento não é pago pelo cliente desta forma.",
        "Este pago no lo paga el cliente de esta forma.",
    ),
    "The payment expired before it was paid.": (
        "O pagamento expirou antes de ser pago.",
        "El pago venció antes de pagarse.",
    ),
    "This refund is being processed right now. Reload the page in a moment.": (
        "Este reembolso está sendo processado agora. Recarregue a página em instantes.",
        "Este reembolso se está procesando ahora. Recarga la página en un momento.",
    ),
    "This payment can be refunded only in full, at once.": (
        "Este pagamento só pode ser reembolsado por inteiro, de uma vez.",
        "Este pago solo se puede reembolsar completo, de una vez.",
    ),
    "This payment cannot be refunded.": (
        "Este pagamento não pode ser reembolsado.",
        "Este pago no se puede reembolsar.",
    ),
    "A refund of this method needs the customer's name, e-mail and document, and the payment has none.": (
        "Um reembolso desta forma de pagamento precisa do nome, e-mail e documento do cliente, e o pagamento não os tem.",
        "Un reembolso de esta forma de pago necesita el nombre, correo y documento del cliente, y el pago no los tiene.",
    ),
    "Refund %(out_request_no)s of %(amount)s %(currency)s: %(status)s. The payment is %(trade_status)s.": (
        "Reembolso %(out_request_no)s de %(amount)s %(currency)s: %(status)s. O pagamento está %(trade_status)s.",
        "Reembolso %(out_request_no)s de %(amount)s %(currency)s: %(status)s. El pago está en %(trade_status)s.",
    ),
    "Captured %(amount)s %(currency)s. The payment is %(status)s.": (
        "Capturado: %(amount)s %(currency)s. O pagamento está %(status)s.",
        "Capturado: %(amount)s %(currency)s. El pago está en %(status)s.",
    ),
    "The authorization was voided. The payment is %(status)s.": (
        "A autorização foi cancelada. O pagamento está %(status)s.",
        "La autorización se anuló. El pago está en %(status)s.",
    ),
    "The customer paid. The payment is %(status)s.": (
        "O cliente pagou. O pagamento está %(status)s.",
        "El cliente pagó. El pago está en %(status)s.",
    ),
}
