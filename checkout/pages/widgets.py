"""Form controls written out directly: the markup WTForms' widgets make, at a fraction of their cost."""

from __future__ import annotations

from markupsafe import Markup, escape
from wtforms.validators import DataRequired, InputRequired, Length, Regexp


def _params(attrs: dict) -> str:
    """Attributes sorted by name, as WTForms writes them: True alone, False/None left out."""
    parts = []
    for name in sorted(attrs):
        value = attrs[name]
        if value is True:
            parts.append(name.rstrip("_"))
        elif value is not False and value is not None:
            parts.append(f'{name.rstrip("_")}="{escape(value)}"')
    return " ".join(parts)


def constraints(field) -> dict:
    """What the page's script checks before a submit, read from the field's own validators, each with the
    message the server gives for it (in the page's language), so both say the same thing."""
    attrs: dict = {}
    for validator in field.validators:
        message = getattr(validator, "message", None)
        if isinstance(validator, DataRequired | InputRequired) and message:
            attrs["data-msg-required"] = str(message)
        elif isinstance(validator, Regexp):
            attrs["pattern"] = validator.regex.pattern
            if message:
                attrs["data-msg-pattern"] = str(message)
        elif isinstance(validator, Length) and message:
            attrs["data-msg-length"] = str(message)
        if getattr(validator, "type_message", None):  # a format the input's type implies (an e-mail address)
            attrs["data-msg-type"] = str(validator.type_message)
    return attrs


def control(field, **extra) -> Markup:
    """The input, select or radio button of a WTForms field (or of one option of a RadioField).

    WTForms renders each attribute through markupsafe's format machinery, which made most of a
    payout page's render time; the output here is the same markup, built with plain strings.
    """
    attrs: dict = {"id": field.id, "name": field.name}
    flags = field.flags
    if getattr(flags, "required", False):
        attrs["required"] = True
    for flag in ("maxlength", "minlength"):
        value = getattr(flags, flag, None)
        if value is not None and value != -1 and value is not False:
            attrs[flag] = value
    attrs.update(constraints(field))
    attrs.update(field.render_kw or {})
    attrs.update(extra)
    if field.type == "SelectField":
        options = "".join(
            f"<option {_params({'selected': selected, 'value': value})}>{escape(label)}</option>"
            for value, label, selected, *_ in field.iter_choices()
        )
        return Markup(f"<select {_params(attrs)}>{options}</select>")
    if field.type == "_Option":
        attrs.update(type="radio", value=field._value(), checked=field.checked)
    else:
        attrs.update(type=field.widget.input_type, value=field._value())
    return Markup(f"<input {_params(attrs)}>")
