//! The one script of the live pages: it applies the server's events (each a part of the page,
//! rendered on the server, replacing the part with that id), ages the heartbeats, and filters
//! the findings table as the filter form changes (a table that holds only its first rows is
//! filtered by the server: the form is submitted). Without it the page is a snapshot, and the
//! filter form still works (it is submitted and the server filters).

/// The script, inlined into live pages.
pub(crate) const SCRIPT: &str = r##"(function () {
  "use strict";
  function ages() {
    var now = Date.now();
    document.querySelectorAll("[data-seen]").forEach(function (el) {
      var s = Math.max(0, Math.round((now - Number(el.getAttribute("data-seen"))) / 1000));
      el.textContent = s + " s ago";
    });
  }
  function filter() {
    var form = document.getElementById("filters");
    var table = document.getElementById("findings");
    if (!form || !table) return;
    var f = form.elements;
    var sev = f.severity.value, rule = f.rule.value, who = f.inspector.value;
    var path = f.path.value.toLowerCase();
    var shown = 0;
    // Cells: severity, rule, Inspectors (space-separated), location (its path in data-path).
    table.querySelectorAll("tr[data-severity]").forEach(function (row) {
      var c = row.cells;
      var ok = (!sev || row.getAttribute("data-severity") === sev) &&
        (!rule || c[1].textContent === rule) &&
        (!who || c[2].textContent.split(" ").indexOf(who) >= 0) &&
        (!path || c[3].getAttribute("data-path").toLowerCase().indexOf(path) >= 0);
      row.hidden = !ok;
      if (ok) shown++;
    });
    table.querySelectorAll("tbody").forEach(function (body) {
      var group = body.querySelector("tr.group");
      if (group) group.hidden = !body.querySelector("tr[data-severity]:not([hidden])");
    });
    var count = document.getElementById("shown");
    if (count) count.textContent = String(shown);
  }
  function values(form) {
    var kept = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name) kept[el.name] = el.type === "checkbox" ? el.checked : el.value;
    });
    return kept;
  }
  function swap(id, html) {
    var old = document.getElementById(id);
    if (!old) return;
    var open = [];
    old.querySelectorAll("details[id]").forEach(function (d) { open.push([d.id, d.open]); });
    var form = old.querySelector("#filters");
    var kept = form ? values(form) : null;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    old.replaceWith(holder.firstElementChild);
    open.forEach(function (o) { var d = document.getElementById(o[0]); if (d) d.open = o[1]; });
    var fresh = document.getElementById("filters");
    if (kept && fresh) {
      Object.keys(kept).forEach(function (k) {
        var el = fresh.elements[k];
        if (!el) return;
        if (el.type === "checkbox") el.checked = kept[k]; else el.value = kept[k];
      });
    }
    filter();
    ages();
  }
  // A table that holds only the first rows is filtered by the server: the form is submitted
  // when a choice is made; so is a change of grouping.
  function truncated() {
    var table = document.getElementById("findings");
    return table && table.hasAttribute("data-truncated");
  }
  function ours(e) { return e.target.form && e.target.form.id === "filters"; }
  document.addEventListener("input", function (e) {
    if (ours(e) && e.target.name !== "group" && !truncated()) filter();
  });
  document.addEventListener("change", function (e) {
    if (ours(e) && (e.target.name === "group" || truncated())) e.target.form.submit();
  });
  var url = document.body.getAttribute("data-events");
  if (url && window.EventSource) {
    var source = new EventSource(url);
    source.addEventListener("part", function (m) {
      var d = JSON.parse(m.data);
      swap(d.id, d.html);
    });
    source.addEventListener("ended", function () { source.close(); });
  }
  // The server already applied the filter the page was asked with: nothing to hide yet.
  ages();
  setInterval(ages, 1000);
})();
"##;
