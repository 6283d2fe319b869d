// The situation form: creatures and players are picked from those entered, a question shows
// only its parameters, the timeline scrolls to the current step, the copy buttons copy.
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

  function showDamageStep() {
    var field = form.querySelector(".damage-step-field");
    if (field) { field.hidden = document.getElementById("moment").value !== "combat_damage"; }
  }

  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.classList.contains("creature-name") || target.id === "players") { refresh(); }
    if (target.classList.contains("question-ask")) { showParams(target); }
    if (target.id === "moment") { showDamageStep(); }
  });
  form.querySelectorAll(".question-ask").forEach(showParams);

  // « Ajouter une créature / une question »: a copy of the last row, emptied and renumbered.
  function addRow(kind) {
    var rows = form.querySelectorAll(".row[data-prefix='" + kind + "']");
    var last = rows[rows.length - 1];
    var from = kind + last.getAttribute("data-index") + "_";
    var index = rows.length;
    if (index >= 20) { return; }
    var to = kind + index + "_";
    var copy = last.cloneNode(true);
    copy.setAttribute("data-index", String(index));
    copy.querySelectorAll("[name], [id], label[for]").forEach(function (el) {
      ["name", "id", "for"].forEach(function (attr) {
        var value = el.getAttribute(attr);
        if (value && value.indexOf(from) === 0) { el.setAttribute(attr, to + value.slice(from.length)); }
      });
    });
    copy.querySelectorAll("input[type=text]").forEach(function (input) { input.value = ""; });
    copy.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      box.checked = /_since_turn_start$/.test(box.name);
    });
    copy.querySelectorAll("select").forEach(function (select) { select.value = ""; });
    var heading = copy.querySelector("legend") || copy.querySelector("label[for$='_ask']");
    heading.textContent = heading.textContent.replace(/\d+$/, String(index + 1));
    last.after(copy);
    copy.querySelectorAll(".question-ask").forEach(showParams);
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
