/* standgen: progressive enhancement only. Every table and link works without this file.
   - tables with data-sortable: buttons inside the sortable header cells; aria-sort is
     set on the sorted column only (W3C APG "Sortable Table").
   - a filter box (data-filter) hides rows of data-filterable tables whose player names
     do not contain the text typed.
   - a "Print pairings" button on round pages.
   No external requests, no libraries. */
(function () {
  "use strict";

  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    if (!cell) return numeric ? -Infinity : "";
    var raw = cell.getAttribute("data-sort-value");
    var text = raw !== null ? raw : cell.textContent.trim();
    if (!numeric) return text;
    var n = parseFloat(text.replace("\u2212", "-"));
    return isNaN(n) ? -Infinity : n;
  }

  function sortBy(table, th, direction) {
    var index = Array.prototype.indexOf.call(th.parentNode.cells, th);
    var numeric = th.getAttribute("data-sort") === "num";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row._standgenIndex = i; });
    var sign = direction === "ascending" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
      var order = numeric ? (x - y) : String(x).localeCompare(String(y), undefined, {sensitivity: "base", numeric: true});
      return order !== 0 ? sign * order : a._standgenIndex - b._standgenIndex;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.querySelectorAll("th[aria-sort]"), function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", direction);
  }

  function makeSortable(table) {
    var headers = table.querySelectorAll("thead th[data-sort]");
    Array.prototype.forEach.call(headers, function (th) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        var current = th.getAttribute("aria-sort");
        var first = th.getAttribute("data-sort-first") || "ascending";
        var next = current ? (current === "ascending" ? "descending" : "ascending") : first;
        sortBy(table, th, next);
      });
    });
  }

  function names(row) {
    var cells = row.querySelectorAll(".name");
    var text = "";
    Array.prototype.forEach.call(cells, function (cell) { text += " " + cell.textContent; });
    return text.toLocaleLowerCase();
  }

  function makeFilter(input) {
    var box = input.closest(".filter");
    box.hidden = false;
    var section = box.parentNode;
    var tables = section.querySelectorAll("table[data-filterable]");
    input.addEventListener("input", function () {
      var query = input.value.trim().toLocaleLowerCase();
      Array.prototype.forEach.call(tables, function (table) {
        var groups = table.hasAttribute("data-filter-groups");
        Array.prototype.forEach.call(table.tBodies, function (body) {
          var any = false;
          Array.prototype.forEach.call(body.rows, function (row) {
            var cells = row.querySelectorAll(".name");
            if (!cells.length) return;
            var match = query !== "" && names(row).indexOf(query) !== -1;
            any = any || match;
            if (groups) {
              row.classList.toggle("found", match);
            } else {
              row.hidden = query !== "" && !match;
            }
          });
          /* Boards keep their heading and every seat: the whole board shows or hides. */
          if (groups) body.hidden = query !== "" && !any;
        });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table[data-sortable]"), makeSortable);
    Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), makeFilter);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-print]"), function (b) {
      b.hidden = false;
      b.addEventListener("click", function () { window.print(); });
    });
  });
})();
