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
}
