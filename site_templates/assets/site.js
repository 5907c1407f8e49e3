/* standgen: progressive enhancement only. Every table and link works without this file.
   - tables with data-sortable: buttons inside the sortable header cells; aria-sort is
     set on the sorted column only (W3C APG "Sortable Table").
   - a filter box (data-filter) hides rows of data-filterable tables whose player names
     do not contain the text typed, compared as people type on phones (fold: no case, no
     accents, Ł as l, ß as ss; spaces and hyphens ignored), and says when none does.
   - a "Print pairings" button on round pages.
   - "follow a player": a reader marks themself on their player page; the choice is kept
     in this browser's localStorage only (no account, no server, no tracking). Every page
     then highlights them; event and home pages lead with their newest table.
   - ?screen: the venue's TV. Large type, no navigation, the page scrolls itself.
   No external requests, no libraries. */
(function () {
  "use strict";

  /* The page's language: its messages in a JSON block (none on an English page). */
  var MESSAGES = (function () {
    var block = document.getElementById("standgen-messages");
    return block ? JSON.parse(block.textContent) : {};
  })();

  function t(message, values) {
    var text = MESSAGES[message] || message;
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(values[key]);
    });
    return text;
  }

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

  /* Names as people type them on phones: case, accents and marks gone, letters that do
     not decompose written as they are typed (tests/realnames.py fold() is the same). */
  var SPECIAL = {"\u0142": "l", "\u00f8": "o", "\u00df": "ss", "\u0111": "d", "\u00f0": "d",
                 "\u00fe": "th", "\u00e6": "ae", "\u0153": "oe", "\u0131": "i"};
  var MARK = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

  function fold(text) {
    var lower = text.toLowerCase();
    if (lower.normalize) lower = lower.normalize("NFKD");
    return lower.replace(MARK, "").replace(/[\u0142\u00f8\u00df\u0111\u00f0\u00fe\u00e6\u0153\u0131]/g,
      function (c) { return SPECIAL[c]; });
  }

  /* What a search compares: folded, without spaces, hyphens or apostrophes
     ("oconchuir" finds "Ó Conchúir", "annesophie" finds "Anne-Sophie"). */
  function searchKey(text) {
    return fold(text).replace(/[^0-9a-z\u00c0-\uffff]+/g, "");
  }
  window.standgenFold = fold;
  window.standgenSearchKey = searchKey;

  function matches(row, query) {
    return Array.prototype.some.call(row.querySelectorAll(".name"), function (cell) {
      var link = cell.querySelector("a");
      return searchKey((link || cell).textContent).indexOf(query) !== -1;
    });
  }

  function makeFilter(input) {
    var box = input.closest(".filter");
    box.hidden = false;
    var section = box.parentNode;
    var tables = section.querySelectorAll("table[data-filterable]");
    var none = document.createElement("p");
    none.className = "no-match";
    none.setAttribute("role", "status");
    box.parentNode.insertBefore(none, box.nextSibling);
    input.addEventListener("input", function () {
      var typed = input.value.trim();
      var query = searchKey(typed);
      var found = 0;
      Array.prototype.forEach.call(tables, function (table) {
        var groups = table.hasAttribute("data-filter-groups");
        Array.prototype.forEach.call(table.tBodies, function (body) {
          var any = false;
          Array.prototype.forEach.call(body.rows, function (row) {
            var cells = row.querySelectorAll(".name");
            if (!cells.length) return;
            var match = query !== "" && matches(row, query);
            any = any || match;
            if (match) found += 1;
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
      none.textContent = query !== "" && !found ? t("No player matches \u201c{query}\u201d.", {query: typed}) : "";
    });
  }

  var FOLLOW = "standgen-follow";

  function followed() {
    try {
      var value = JSON.parse(window.localStorage.getItem(FOLLOW) || "null");
      return value && typeof value.id === "string" && typeof value.name === "string" ? value : null;
    } catch (e) {
      return null;
    }
  }

  function historyId(href) {
    var m = /(?:^|\/)players\/([^\/]+)\/index\.html$/.exec(href || "");
    return m ? m[1] : null;
  }

  function setFollowed(value) {
    try {
      if (value) window.localStorage.setItem(FOLLOW, JSON.stringify(value));
      else window.localStorage.removeItem(FOLLOW);
    } catch (e) { /* storage off: nothing is remembered */ }
  }

  function highlight(me) {
    Array.prototype.forEach.call(document.querySelectorAll("main a[href]"), function (a) {
      if (historyId(a.getAttribute("href")) !== me.id) return;
      var cell = a.closest("td, th, li, dd");
      if (cell) cell.classList.add("me-name");
      var row = a.closest("tr");
      if (row && !row.classList.contains("board-head")) row.classList.add("me");
    });
  }

  function leadLine(box, me, data, eventName, eventHref) {
    var line = data && data.players && data.players[me.id];
    if (!line) return false;
    var p = document.createElement("p");
    var strong = document.createElement("strong");
    var link = document.createElement("a");
    link.href = eventHref ? new URL(data.href, new URL(eventHref, document.baseURI)).href : data.href;
    link.textContent = line;
    strong.appendChild(link);
    if (eventName) p.appendChild(document.createTextNode(eventName + ": "));
    p.appendChild(strong);
    if (data.status !== "complete") p.appendChild(document.createTextNode(" (" + t(data.status) + ")"));
    box.appendChild(p);
    return true;
  }

  function stopButton(box, me) {
    var p = document.createElement("p");
    p.className = "meta";
    p.appendChild(document.createTextNode(t("Following {name} in this browser. ", {name: me.name})));
    var stop = document.createElement("button");
    stop.type = "button";
    stop.className = "print";
    stop.textContent = t("Stop following");
    stop.addEventListener("click", function () { setFollowed(null); window.location.reload(); });
    p.appendChild(stop);
    box.appendChild(p);
  }

  function follow() {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-follow-name]"), function (b) {
      var id = historyId(b.getAttribute("data-follow-href"));
      if (!id) return;
      var me = followed();
      b.closest(".follow").hidden = false;
      if (me && me.id === id) b.textContent = t("Stop following {name}", {name: me.name});
      b.addEventListener("click", function () {
        var now = followed();
        setFollowed(now && now.id === id ? null : {id: id, name: b.getAttribute("data-follow-name")});
        window.location.reload();
      });
    });
    var me = followed();
    if (!me) return;
    highlight(me);
    var box = document.querySelector("[data-follow-lead]");
    if (!box) return;
    var data = document.querySelector(".follow-data");
    if (data) {
      try { leadLine(box, me, JSON.parse(data.textContent), "", ""); } catch (e) { /* none */ }
      stopButton(box, me);
      box.hidden = false;
      return;
    }
    /* Home: read the newest round from the pages of the events being played. */
    var events = document.querySelectorAll(".now li > a:first-child");
    if (!events.length || !window.fetch || !window.DOMParser) return;
    stopButton(box, me);
    box.hidden = false;
    Array.prototype.forEach.call(events, function (a) {
      window.fetch(a.href).then(function (r) { return r.ok ? r.text() : ""; }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var found = doc.querySelector(".follow-data");
        if (!found) return;
        var wrapper = document.createElement("div");
        if (leadLine(wrapper, me, JSON.parse(found.textContent), a.textContent, a.href)) {
          box.insertBefore(wrapper.firstChild, box.firstChild);
        }
      }).catch(function () { /* offline or opened from a file: nothing to add */ });
    });
  }

  function screen() {
    if (!/(?:^\?|&)screen(?:=|&|$)/.test(window.location.search)) return;
    document.documentElement.classList.add("screen");
    var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var pause = 0;
    window.setInterval(function () {
      var end = document.documentElement.scrollHeight - window.innerHeight;
      if (end <= 0) return;
      if (pause > 0) { pause -= 1; return; }
      if (window.scrollY >= end - 1) { window.scrollTo(0, 0); pause = 60; return; }
      if (reduced) { window.scrollBy(0, Math.round(window.innerHeight * 0.8)); pause = 100; return; }
      window.scrollBy(0, 2);
    }, 50);
  }

  /* The home page's player search over players/search.json (every player of every event),
     loaded when the reader first types; names folded as in the find boxes. */
  function siteSearch(box) {
    var input = box.querySelector("input");
    var list = box.querySelector(".search-results");
    var none = box.querySelector(".no-match");
    var index = box.getAttribute("data-site-search");
    var base = index.replace(/players\/search\.json$/, "");
    var players = null;
    if (!window.fetch) return;
    box.hidden = false;
    function show() {
      if (!players) return;
      var typed = input.value.trim();
      var query = searchKey(typed);
      while (list.firstChild) list.removeChild(list.firstChild);
      if (!query) { none.textContent = ""; return; }
      var found = players.filter(function (p) {
        return searchKey(p.name).indexOf(query) !== -1;
      });
      found.slice(0, 30).forEach(function (p) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = base + p.href;
        a.textContent = p.name;
        li.appendChild(a);
        var where = document.createElement("span");
        where.className = "status";
        where.textContent = p.events.join(" \u00b7 ");
        li.appendChild(where);
        list.appendChild(li);
      });
      none.textContent = found.length ? (found.length > 30 ? t("{number} players match; the first 30:", {number: found.length}) : "")
        : t("No player matches \u201c{query}\u201d.", {query: typed});
    }
    input.addEventListener("input", function () {
      if (players) { show(); return; }
      if (box.getAttribute("data-loading")) return;
      box.setAttribute("data-loading", "1");
      window.fetch(index).then(function (r) { return r.json(); }).then(function (data) {
        players = data.players || [];
        box.setAttribute("data-loaded", "1");
        show();
      }).catch(function () {
        none.textContent = t("The search needs the site served from a web server.");
      });
    });
  }

  /* A table wider than its screen says so in its caption: the pinned columns stay, the
     others are a swipe away. */
  function scrollHints() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll"), function (region) {
      if (!region.querySelector("table")) return;
      var hint = region.previousElementSibling;
      if (hint && !hint.classList.contains("scroll-hint")) hint = null;
      var wide = region.offsetParent !== null && region.scrollWidth > region.clientWidth + 1;
      if (wide && !hint) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.textContent = t("The table is wider than the screen: swipe it sideways for more columns \u2192");
        region.parentNode.insertBefore(hint, region);
      } else if (!wide && hint) {
        hint.parentNode.removeChild(hint);
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    follow();
    scrollHints();
    Array.prototype.forEach.call(document.querySelectorAll("[data-site-search]"), siteSearch);
    window.addEventListener("resize", scrollHints);
    screen();
    Array.prototype.forEach.call(document.querySelectorAll("table[data-sortable]"), makeSortable);
    Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), makeFilter);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-print]"), function (b) {
      b.hidden = false;
      b.addEventListener("click", function () { window.print(); });
    });
  });
})();
