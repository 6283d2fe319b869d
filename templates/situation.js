// The situation form: the question first, then only the parts of the form it needs (a part
// already filled in stays shown; « Afficher tous les champs » shows them all); creatures and
// players are picked from those entered; a question or an event shows only its parameters;
// mana is entered with symbol buttons and shown as symbols; the timeline scrolls to the
// current step; the copy buttons copy. Without JavaScript every field is shown.
(function () {
  "use strict";
  var form = document.querySelector(".situation-form");
  if (!form) { return; }

  function names(selector) {
    var out = [];
    form.querySelectorAll(selector).forEach(function (input) {
      var name = input.value.trim();
      if (name && out.indexOf(name) < 0) { out.push(name); }
    });
    return out;
  }

  function playerNames() {
    var text = document.getElementById("players").value;
    var out = text.split(/[,;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
    return out.length ? out : ["A", "B"];
  }

  function refill(select, values) {
    var chosen = select.value;
    while (select.options.length > 1) { select.remove(1); }
    values.forEach(function (value) { select.add(new Option(value, value, false, value === chosen)); });
    if (chosen && values.indexOf(chosen) < 0) { select.add(new Option(chosen, chosen, false, true)); }
  }

  function refresh() {
    var creatures = names(".creature-name");
    form.querySelectorAll("select[name$='_creature'], select[name$='_attacker'], select[name$='_blocking']")
      .forEach(function (select) { refill(select, creatures); });
    var players = playerNames();
    form.querySelectorAll("select[name$='_player']").forEach(function (select) { refill(select, players); });
  }

  function showParams(select) {
    var option = select.options[select.selectedIndex];
    var params = option && option.value ? (option.getAttribute("data-params") || "").split(" ") : [];
    select.closest(".question").querySelectorAll(".question-param").forEach(function (field) {
      field.hidden = params.indexOf(field.getAttribute("data-param")) < 0;
    });
  }

  function showEventParams(select) {
    var option = select.options[select.selectedIndex];
    var params = option && option.value ? (option.getAttribute("data-params") || "").split(" ") : [];
    var row = select.closest(".event");
    row.querySelectorAll(".event-param").forEach(function (field) {
      field.hidden = params.indexOf(field.getAttribute("data-param")) < 0;
    });
    var amount = row.querySelector(".amount-label");
    if (amount && option && option.value) {
      var text = option.getAttribute("data-amount") || "nombre";
      amount.textContent = text.charAt(0).toUpperCase() + text.slice(1);
      var input = row.querySelector("input[name$='_amount']");
      if (input) { input.placeholder = option.getAttribute("data-placeholder") || ""; }
    }
    var keys = row.querySelector(".mana-keys");
    if (keys) { keys.hidden = ["cast", "add_mana"].indexOf(option ? option.value : "") < 0; }
  }

  // The parts of the form the chosen questions need (« Où en est le tour ? » when none).
  var showAll = false;
  function filled(part) {
    var any = false;
    part.querySelectorAll("input[type=text], textarea").forEach(function (input) {
      if (input.value.trim() && input.id !== "lands_played") { any = true; }
    });
    return any;
  }
  function showGroups() {
    var needed = [];
    var asked = false;
    form.querySelectorAll(".question-ask").forEach(function (select) {
      var option = select.options[select.selectedIndex];
      if (option && option.value) {
        asked = true;
        (option.getAttribute("data-groups") || "").split(" ").forEach(function (g) { if (g) { needed.push(g); } });
      }
    });
    if (!asked) {
      var where = form.querySelector(".question-ask option[value='where']");
      (where ? where.getAttribute("data-groups") || "" : "").split(" ").forEach(function (g) { if (g) { needed.push(g); } });
    }
    var hiddenCount = 0;
    form.querySelectorAll("[data-group]").forEach(function (part) {
      var groups = part.getAttribute("data-group").split(" ");
      var show = showAll || filled(part) || part.querySelector("[aria-invalid=true]") !== null ||
        groups.some(function (g) { return needed.indexOf(g) >= 0; });
      part.hidden = !show;
      if (!show) { hiddenCount += 1; }
    });
    // With events the replay decides the moment: the field is hidden (and ignored).
    var replayed = Array.prototype.some.call(form.querySelectorAll(".event-kind"), function (select) {
      return select.value !== "";
    });
    var moment = form.querySelector(".moment-field");
    if (moment) { moment.hidden = replayed; }
    var button = document.getElementById("show-all");
    if (button) {
      button.parentNode.hidden = hiddenCount === 0 && !showAll;
      button.textContent = showAll ? "N'afficher que les champs utiles" : "Afficher tous les champs";
      button.setAttribute("aria-expanded", showAll ? "true" : "false");
    }
  }

  // Mana: symbol buttons add to the field (a player's part starts with the active player's
  // name), and the field is shown as symbols below it.
  var MANA = /^\{?(\d{1,3}|[WUBRGC])\}?/i;
  var MANA_NAMES = {W: "blanc", U: "bleu", B: "noir", R: "rouge", G: "vert", C: "incolore"};
  function symbols(text) {
    var out = [];
    var rest = text.replace(/\s+/g, "");
    if (!rest || /^\d+$/.test(rest)) { return null; }
    while (rest) {
      var found = MANA.exec(rest);
      if (!found) { return null; }
      out.push(found[1].toUpperCase());
      rest = rest.slice(found[0].length);
    }
    return out;
  }
  function preview(input) {
    var box = document.getElementById(input.id + "-preview");
    if (!box) { return; }
    box.textContent = "";
    input.value.split(",").forEach(function (part) {
      var at = part.indexOf("=");
      var found = symbols(at >= 0 ? part.slice(at + 1) : part);
      if (!found) { return; }
      var span = document.createElement("span");
      span.className = "mana-part";
      span.appendChild(document.createTextNode(at >= 0 ? part.slice(0, at).trim() + " : " : ""));
      found.forEach(function (sym) {
        var abbr = document.createElement("abbr");
        abbr.className = "mana mana-" + sym.toLowerCase();
        abbr.title = MANA_NAMES[sym] || "générique";
        abbr.textContent = sym;
        span.appendChild(abbr);
      });
      box.appendChild(span);
      box.appendChild(document.createTextNode(" "));
    });
  }
  function addMana(input, symbol) {
    var value = input.value;
    if (symbol === "back") {
      input.value = value.replace(/(\{\d+\}|\d+|[WUBRGC])$/i, "").replace(/\s*,\s*$/, "");
    } else {
      var text = /^\d+$/.test(symbol) ? "{" + symbol + "}" : symbol;
      if (input.classList.contains("mana-field") && !/=\s*\S*$/.test(value.split(",").pop())) {
        var active = document.getElementById("active").value.trim() || playerNames()[0];
        value = (value.trim() ? value.replace(/\s*,?\s*$/, ", ") : "") + active + "=";
      }
      input.value = value + text;
    }
    preview(input);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  form.addEventListener("click", function (event) {
    var key = event.target.closest(".mana-key");
    if (!key) { return; }
    var input = document.getElementById(key.closest(".mana-keys").getAttribute("data-for"));
    if (input) { addMana(input, key.getAttribute("data-mana")); }
  });
  form.querySelectorAll(".mana-keys").forEach(function (keys) {
    var input = document.getElementById(keys.getAttribute("data-for"));
    if (!input) { return; }
    if (input.id === "mana_pools" || input.id === "mana_available") {
      input.classList.add("mana-field");
      keys.hidden = false;
    }
    input.addEventListener("input", function () { preview(input); });
  });

  // Creatures and blocks by buttons: a button per creature entered toggles it in the list;
  // « bloqueur » and « attaquant » menus add « bloqueur=attaquant ». The text stays editable.
  function listOf(input) {
    return input.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  }
  function pickers() {
    var creatures = names(".creature-name");
    form.querySelectorAll("input[data-pick]").forEach(function (input) {
      var box = input.nextElementSibling && input.nextElementSibling.classList.contains("picker") ?
        input.nextElementSibling : null;
      if (!box) {
        box = document.createElement("span");
        box.className = "picker";
        input.after(box);
      }
      box.textContent = "";
      if (!creatures.length) { return; }
      if (input.getAttribute("data-pick") === "creatures") {
        creatures.forEach(function (name) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = "pick-key";
          button.textContent = name;
          button.setAttribute("aria-pressed", listOf(input).indexOf(name) >= 0 ? "true" : "false");
          button.addEventListener("click", function () {
            var list = listOf(input);
            var at = list.indexOf(name);
            if (at >= 0) { list.splice(at, 1); } else { list.push(name); }
            input.value = list.join(", ");
            button.setAttribute("aria-pressed", at >= 0 ? "false" : "true");
          });
          box.appendChild(button);
        });
        return;
      }
      ["bloqueur", "attaquant"].forEach(function (role) {
        var select = document.createElement("select");
        select.setAttribute("aria-label", role);
        select.add(new Option(role, ""));
        creatures.forEach(function (name) { select.add(new Option(name, name)); });
        box.appendChild(select);
      });
      var add = document.createElement("button");
      add.type = "button";
      add.className = "pick-key";
      add.textContent = "Ajouter ce blocage";
      add.addEventListener("click", function () {
        var menus = box.querySelectorAll("select");
        if (!menus[0].value || !menus[1].value) { return; }
        var list = listOf(input).filter(function (pair) { return pair.split("=")[0].trim() !== menus[0].value; });
        list.push(menus[0].value + "=" + menus[1].value);
        input.value = list.join(", ");
      });
      box.appendChild(add);
    });
  }

  function showDamageStep() {
    var field = form.querySelector(".damage-step-field");
    if (field) { field.hidden = document.getElementById("moment").value !== "combat_damage"; }
  }

  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.classList.contains("creature-name") || target.id === "players") { refresh(); pickers(); }
    if (target.classList.contains("question-ask")) { showParams(target); showGroups(); }
    if (target.classList.contains("event-kind")) { showEventParams(target); showGroups(); }
    if (target.id === "moment") { showDamageStep(); }
  });
  form.querySelectorAll(".question-ask").forEach(showParams);
  form.querySelectorAll(".event-kind").forEach(showEventParams);
  var allButton = document.getElementById("show-all");
  if (allButton) {
    allButton.addEventListener("click", function () { showAll = !showAll; showGroups(); });
  }
  showGroups();
  pickers();

  // « Ajouter une créature / une question »: a copy of the last row, emptied and renumbered.
  function addRow(kind) {
    var rows = form.querySelectorAll(".row[data-prefix='" + kind + "']");
    var last = rows[rows.length - 1];
    var from = kind + last.getAttribute("data-index") + "_";
    var index = rows.length;
    if (index >= (kind === "event" ? 40 : 20)) { return; }
    var to = kind + index + "_";
    var copy = last.cloneNode(true);
    copy.setAttribute("data-index", String(index));
    copy.querySelectorAll("[name], [id], label[for], [data-for]").forEach(function (el) {
      ["name", "id", "for", "data-for"].forEach(function (attr) {
        var value = el.getAttribute(attr);
        if (value && value.indexOf(from) === 0) { el.setAttribute(attr, to + value.slice(from.length)); }
      });
    });
    copy.querySelectorAll("input[type=text]").forEach(function (input) { input.value = ""; });
    copy.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      box.checked = /_since_turn_start$/.test(box.name);
    });
    copy.querySelectorAll("select").forEach(function (select) { select.value = ""; });
    copy.querySelectorAll(".field-error").forEach(function (error) { error.remove(); });
    copy.querySelectorAll("[aria-invalid]").forEach(function (el) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    });
    var heading = copy.querySelector("legend") || copy.querySelector("label[for$='_ask']") ||
      copy.querySelector("label[for$='_kind']");
    heading.textContent = heading.textContent.replace(/\d+$/, String(index + 1));
    last.after(copy);
    copy.querySelectorAll(".picker").forEach(function (box) { box.remove(); });
    copy.querySelectorAll(".question-ask").forEach(showParams);
    copy.querySelectorAll(".event-kind").forEach(showEventParams);
    pickers();
    (copy.querySelector("input[type=text], select") || copy).focus();
  }
  form.querySelectorAll(".add-row").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { addRow(button.getAttribute("data-row")); });
  });
  showDamageStep();

  var current = document.querySelector(".timeline-step.current");
  var scroller = document.querySelector(".timeline-scroll");
  if (current && scroller) {
    scroller.scrollLeft = Math.max(0, current.offsetLeft - (scroller.clientWidth - current.offsetWidth) / 2);
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var text = document.getElementById(button.getAttribute("data-copy")).textContent;
      var status = document.querySelector(".copy-status");
      function done(ok) { status.textContent = ok ? "Copié." : "Copie impossible : sélectionnez le texte ci-dessous."; }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
      } else {
        var area = document.createElement("textarea");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        area.remove();
        done(ok);
      }
    });
  });
}());
