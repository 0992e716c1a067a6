// Hosted pages: copy buttons, countdown, live status, messages to the merchant's frame, payout form.
// The framing page's origin when the merchant registered it, else "": messages go only there, never "*".
function registeredParent(frameOrigins) {
  "use strict";
  if (window.parent === window) { return ""; }
  var ancestors = window.location.ancestorOrigins;
  var parent = ancestors && ancestors.length ? ancestors[0] : "";
  if (!parent && document.referrer) { parent = new URL(document.referrer).origin; }
  return (frameOrigins || []).indexOf(parent) !== -1 ? parent : "";
}

(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent || "{}");

  // Copy: the Clipboard API, refused in a cross-site frame unless the parent allows clipboard-write; then
  // execCommand on the selected field; else the text stays selected and the page says which keys copy it.
  var apple = /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
  var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  // Asking a frame's blocked Clipboard API logs an error in the console: skip it where the policy says no.
  var policy = document.permissionsPolicy || document.featurePolicy;
  var allowed = !policy || policy.allowsFeature("clipboard-write");
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var state = document.getElementById(button.getAttribute("data-copy") + "-state");
    var label = button.textContent, timer = 0;
    var select = function () { field.focus(); field.select(); field.setSelectionRange(0, field.value.length); };
    var show = function (text, kind) {
      window.clearTimeout(timer);
      state.setAttribute("role", "status"); state.textContent = text; state.className = "copy-state " + kind;
    };
    var copied = function () {
      select(); show(button.getAttribute("data-done"), "ok"); button.textContent = button.getAttribute("data-done");
      timer = window.setTimeout(function () { state.textContent = ""; button.textContent = label; }, 4000);
    };
    var byHand = function () {
      // A field kept out of sight (the boleto's digits beside its printed line) shows itself to be copied.
      var hidden = field.closest(".copy-only");
      if (hidden) { hidden.classList.add("revealed"); }
      select();
      show(button.getAttribute(touch ? "data-touch" : apple ? "data-apple" : "data-keys"), "manual");
    };
    var legacy = function () {
      var done = false;
      select();
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      if (done) { copied(); } else { byHand(); }
    };
    button.addEventListener("click", function () {
      if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext && allowed) {
        navigator.clipboard.writeText(field.value).then(copied, legacy);
      } else { legacy(); }
    });
  });

  var countdown = document.querySelector("[data-countdown]");
  if (countdown && data.deadline) {
    // The deadline is in the service's (sandbox) time; `now` says how far that is from this device's clock.
    var offset = data.now ? data.now - Date.now() / 1000 : 0;
    var tick = function () {
      var left = Math.max(0, Math.floor(data.deadline - (Date.now() / 1000 + offset)));
      var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      countdown.textContent = (h ? h + ":" : "") + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
      if (left === 0) { window.location.reload(); } else { window.setTimeout(tick, 1000); }
    };
    tick();
  }

  if (data.poll) {
    var poll = function () {
      fetch(data.poll, { headers: { "Accept": "application/json" }, credentials: "omit" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (answer && answer.status !== data.status) { window.location.assign(answer.next); }
          else { window.setTimeout(poll, data.interval || 3000); }
        }, function () { window.setTimeout(poll, (data.interval || 3000) * 2); });
    };
    window.setTimeout(poll, data.interval || 3000);
  }

  var framer = registeredParent(data.frameOrigins);
  if (data.message && framer) { window.parent.postMessage(data.message, framer); }

  var methods = document.querySelectorAll("input[name=method]");
  var showMethod = function () {
    var chosen = document.querySelector("input[name=method]:checked");
    document.querySelectorAll("[data-method]").forEach(function (block) {
      block.hidden = !chosen || block.getAttribute("data-method") !== chosen.value;
    });
  };
  methods.forEach(function (input) { input.addEventListener("change", showMethod); });
  if (methods.length) { showMethod(); }

  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
      var submitter = event.submitter;
      if (submitter && submitter.name) {
        var keep = document.createElement("input");
        keep.type = "hidden"; keep.name = submitter.name; keep.value = submitter.value;
        form.appendChild(keep);
      }
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    });
  });
}());

// ---- card entry, form checks before submit, frame height ----
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent || "{}");
  var checks = {}; // per input id: a check of its own, after the declared ones (the card's)

  var checkable = function (el) {
    return el && el.form && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.closest(".field") &&
      !/^(hidden|radio|checkbox|submit|button)$/.test(el.type) && !el.disabled && !el.closest("[hidden]");
  };
  // What the server would say first about this value, with the server's own (translated) messages.
  var problem = function (el) {
    var value = el.value, say = function (name) { return el.getAttribute("data-msg-" + name) || ""; };
    if (!value.trim()) { return el.required ? say("required") : ""; }
    var pattern = el.getAttribute("pattern");
    if (pattern && !new RegExp("^(?:" + pattern + ")$").test(value)) { return say("pattern"); }
    if (el.minLength > 0 && value.length < el.minLength) { return say("length"); }
    if (el.type === "email" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) { return say("type"); }
    return checks[el.id] ? checks[el.id](value) : "";
  };
  // The markup the server writes: <p class="error" id="<id>-error"> in the field, .has-error, aria-invalid.
  var show = function (el, message) {
    var box = el.closest(".field"), id = el.id + "-error", p = document.getElementById(id);
    var ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(function (x) { return x && x !== id; });
    if (message) {
      if (!p) { p = document.createElement("p"); p.className = "error"; p.id = id; box.appendChild(p); }
      p.textContent = message;
      ids.push(id);
      el.setAttribute("aria-invalid", "true");
    } else {
      if (p) { p.remove(); }
      el.removeAttribute("aria-invalid");
    }
    box.classList.toggle("has-error", !!message);
    if (ids.length) { el.setAttribute("aria-describedby", ids.join(" ")); } else { el.removeAttribute("aria-describedby"); }
  };

  // A form marked data-server-check (the payout form) with problems of its own also asks the server, which
  // alone judges some rules (check digits), so that one round shows every problem: the page's first.
  var askServer = function (form, found) {
    var body = new FormData(form), done = function () { form.removeAttribute("aria-busy"); };
    form.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: body, credentials: "omit",
      headers: { "X-Checkout-Check": "1", "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        var errors = (answer && answer.errors) || {}, first = null;
        Array.prototype.forEach.call(form.elements, function (el) {
          if (!checkable(el)) { return; }
          var message = found[el.id] || errors[el.name] || "";
          show(el, message);
          if (message && !first) { first = el; }
        });
        if (first) { first.focus(); }
        done();
      }, done); // unanswered: the page's own findings stay shown
  };
  // Capture phase: runs before the once-only guard, which then never sees a refused submit.
  document.addEventListener("submit", function (event) {
    var form = event.target, first = null, found = {};
    if (form.getAttribute("data-sent")) { return; }
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!checkable(el)) { return; }
      var message = problem(el);
      show(el, message);
      if (message) { found[el.id] = message; }
      if (message && !first) { first = el; }
    });
    if (!first) { return; }
    event.preventDefault(); event.stopPropagation(); first.focus();
    if (form.hasAttribute("data-server-check")) { askServer(form, found); }
  }, true);
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!checkable(el)) { return; }
    el.setAttribute("data-touched", "1");
    if (el.getAttribute("aria-invalid") && !problem(el)) { show(el, ""); } // fixed: say so at once
  });
  document.addEventListener("focusout", function (event) {
    var el = event.target;
    if (checkable(el) && el.getAttribute("data-touched")) { show(el, problem(el)); }
  });
  var refused = document.querySelector(".has-error input, .has-error select");
  if (refused) { refused.focus(); }

  var card = document.querySelector("[data-card]");
  if (card) {
    var number = card.querySelector("#card_no"), exp = card.querySelector("#exp"), cvv = card.querySelector("#cvv");
    var elo = (number.getAttribute("data-elo") || "").split(" ");
    var digits = function (text) { return text.replace(/\D/g, ""); };
    var starts = function (d, list) { return list.some(function (p) { return p && d.indexOf(p) === 0; }); };
    var within = function (d, n, low, high) { return d.length >= n && +d.slice(0, n) >= low && +d.slice(0, n) <= high; };
    // The service's brand rules (cards/service.py), read on a prefix while the number is typed.
    var brandOf = function (d) {
      if (starts(d, ["606282", "3841"])) { return "hipercard"; }
      if (starts(d, elo)) { return "elo"; }
      if (starts(d, ["34", "37"])) { return "amex"; }
      if (d.charAt(0) === "4") { return "visa"; }
      if (within(d, 2, 51, 55) || within(d, 4, 2221, 2720)) { return "mastercard"; }
      if (starts(d, ["36", "38"]) || within(d, 3, 300, 305)) { return "diners"; }
      if (starts(d, ["6011", "65"])) { return "discover"; }
      return within(d, 4, 3528, 3589) ? "jcb" : "";
    };
    var grouped = function (d, brand) {
      var sizes = brand === "amex" ? [4, 6, 5] : brand === "diners" && d.length <= 14 ? [4, 6, 4] : [4, 4, 4, 4, 3];
      var parts = [], at = 0;
      sizes.forEach(function (size) { if (at < d.length) { parts.push(d.slice(at, at + size)); at += size; } });
      return parts.join(" ");
    };
    var live = document.getElementById("card_no-brand");
    var showBrand = function (brand) {
      card.querySelectorAll("[data-brand]").forEach(function (m) {
        m.hidden = m.getAttribute("data-brand") !== brand;
        if (!m.hidden && live) { live.textContent = m.getAttribute("data-name") || ""; }
      });
      card.querySelectorAll("[data-cvv]").forEach(function (h) { h.hidden = h.getAttribute("data-cvv") !== (brand === "amex" ? "4" : "3"); });
    };
    var typed = digits(number.value);
    number.addEventListener("input", function (event) {
      var d = digits(number.value), before = digits(number.value.slice(0, number.selectionStart)).length;
      if (event.inputType === "deleteContentBackward" && d === typed && before > 0) {
        d = d.slice(0, before - 1) + d.slice(before); before -= 1; // a backspace on a space takes the digit before it
      }
      var brand = brandOf(d);
      d = d.slice(0, brand === "amex" ? 15 : 19);
      typed = d;
      number.value = grouped(d, brand);
      var caret = 0, seen = 0;
      while (caret < number.value.length && seen < before) { if (/\d/.test(number.value.charAt(caret))) { seen += 1; } caret += 1; }
      if (document.activeElement === number) { number.setSelectionRange(caret, caret); }
      showBrand(brand);
    });
    exp.addEventListener("input", function (event) {
      var raw = exp.value, d = digits(raw);
      if (/^[2-9]$/.test(d) || /^\d\s*\/$/.test(raw.trim()) || /^1[3-9]$/.test(d)) { d = "0" + d; } // "4": April
      d = d.slice(0, 6);
      var deleting = (event.inputType || "").indexOf("delete") === 0;
      exp.value = d.length > 2 || (d.length === 2 && !deleting) ? d.slice(0, 2) + "/" + d.slice(2) : d;
    });
    var luhn = function (d) {
      var sum = 0;
      for (var i = 0; i < d.length; i += 1) {
        var n = +d.charAt(d.length - 1 - i);
        if (i % 2) { n *= 2; if (n > 9) { n -= 9; } }
        sum += n;
      }
      return sum % 10 === 0;
    };
    checks[number.id] = function (value) {
      var d = value.replace(/[\s-]/g, "");
      if (!/^\d{12,19}$/.test(d) || !luhn(d)) { return number.getAttribute("data-msg-invalid"); }
      return brandOf(d) ? "" : number.getAttribute("data-msg-brand");
    };
    checks[exp.id] = function (value) {
      var m = new RegExp("^(?:" + exp.getAttribute("pattern") + ")$").exec(value);
      if (!m) { return ""; }
      var month = +m[1], year = +m[2] < 100 ? 2000 + +m[2] : +m[2], today = exp.getAttribute("data-today").split("-");
      if (month < 1 || month > 12) { return exp.getAttribute("data-msg-month"); }
      if (year * 12 + month < +today[0] * 12 + +today[1]) { return exp.getAttribute("data-msg-expired"); }
      return year > +today[0] + +exp.getAttribute("data-years") ? exp.getAttribute("data-msg-far") : "";
    };
    checks[cvv.id] = function (value) {
      var d = digits(number.value), brand = d.length >= 12 ? brandOf(d) : "";
      if (!brand || value.length === (brand === "amex" ? 4 : 3)) { return ""; }
      return cvv.getAttribute(brand === "amex" ? "data-msg-amex" : "data-msg-other");
    };
    if (typed) { showBrand(brandOf(typed)); }
  }

  // Inside a frame: the page's height to a parent the merchant registered, so the frame can fit it.
  var framer = registeredParent(data.frameOrigins);
  if (framer && window.ResizeObserver) {
    var sent = 0;
    var report = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== sent) { sent = height; window.parent.postMessage({ type: "checkout.resize", height: height }, framer); }
    };
    new ResizeObserver(report).observe(document.documentElement);
    report();
  }
}());

// ---- payment pages: "Print / save as PDF" prints the slip with the print stylesheet ----
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
}());

// ---- payout checkout: the PIX key's example follows its type ----
(function () {
  "use strict";
  var type = document.querySelector("select[data-examples]");
  var key = type && document.getElementById(type.getAttribute("data-for"));
  if (!key) { return; }
  var examples = JSON.parse(type.getAttribute("data-examples"));
  type.addEventListener("change", function () { key.placeholder = examples[type.value] || ""; });
}());
