// cartoscan page: photo -> /api/scan -> the sheet drawn with its doubts -> tap to fix -> /api/score.
// Every string from the server or the person goes into the page as text (textContent, attributes),
// never as HTML.
(function () {
  "use strict";
  var boot = JSON.parse(document.getElementById("boot").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var LETTERS = ["A", "B", "C", "D"];
  var DRAWN = [".", "F", "V", "P", "W", "M", "H", "X"];
  var state = { scan: null, fixes: {}, confirmed: {}, name: "", seq: 0, pinned: null, cell: null,
                suspect: [], readingChecked: false };
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, text) {
    var node = tag.indexOf("svg:") === 0 ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function status(text, isError) {
    var s = $("status");
    s.textContent = text || "";
    s.className = isError ? "error" : "";
  }

  // --- cards and season, remembered on this device -------------------------------------------
  function fillCards() {
    var list = $("card-names"), seen = {};
    boot.cards.forEach(function (card) {
      var names = [card.names.en, card.names.de, card.names.pl, card.names.ru, card.id];
      names.forEach(function (n) {
        if (n && !seen[n]) { seen[n] = 1; list.appendChild(el("option", { value: n })); }
      });
    });
    var saved = {};
    try { saved = JSON.parse(localStorage.getItem("cartoscan") || "{}"); } catch (e) { saved = {}; }
    LETTERS.forEach(function (l, i) { $("card-" + l).value = (saved.cards || [])[i] || ""; });
    $("season").value = saved.season || "";
  }

  function chosenCards() {
    return LETTERS.map(function (l) { return $("card-" + l).value.trim(); }).filter(Boolean);
  }

  function remember() {
    try {
      localStorage.setItem("cartoscan", JSON.stringify({
        cards: LETTERS.map(function (l) { return $("card-" + l).value.trim(); }), season: $("season").value }));
    } catch (e) { /* private mode: nothing to remember */ }
  }

  // --- the photo --------------------------------------------------------------------------------
  function onFile(input) {
    var file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    if (file.size > boot.max_upload_bytes) {
      status("This photo is larger than " + Math.round(boot.max_upload_bytes / 1048576) + " MB.", true);
      return;
    }
    state.name = file.name || "photo";
    state.file = file;
    status("Reading " + state.name + " …");
    var form = new FormData();
    form.append("photo", file, state.name);
    fetch("/api/scan", { method: "POST", body: form })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (res) {
        if (!res.ok) { status(res.body.error || "The photo could not be read.", true); return; }
        state.scan = res.body; state.fixes = {}; state.confirmed = {}; state.cell = null;
        state.suspect = []; state.readingChecked = false;
        status("");
        showResult();
      })
      .catch(function () { status("The server did not answer.", true); });
  }

  function showResult() {
    var scan = state.scan;
    $("result").hidden = false;
    $("setup").classList.add("compact");
    $("setup-summary").textContent = summary();
    $("side").textContent = scan.side;
    $("coins").value = scan.coins;
    $("spent").value = scan.spent;
    closePicker();
    drawSheet();
    rescore();
    $("result").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function summary() {
    var cards = chosenCards(), season = $("season").value;
    return (cards.length ? cards.join(" · ") : "no cards picked") + (season ? " — " + season : "");
  }

  // --- the sheet as the page sends it --------------------------------------------------------------
  function cellAt(label) {
    for (var i = 0; i < state.scan.overlay.length; i++) if (state.scan.overlay[i].cell === label) return state.scan.overlay[i];
    return null;
  }

  function symbolOf(layer) { return state.fixes[layer.cell] || layer.symbol; }

  function unsure() {  // the labels of the '?' cells nobody fixed yet
    return state.scan.overlay.filter(function (c) { return c.symbol === "?" && !state.fixes[c.cell]; })
      .map(function (c) { return c.cell; });
  }

  function warnings() {
    return state.scan.warnings.filter(function (w) { return !state.confirmed[w]; });
  }

  function sheetNotation() {
    var scan = state.scan, rows = [];
    for (var r = 0; r < 11; r++) {
      var row = "";
      for (var c = 0; c < 11; c++) row += symbolOf(scan.overlay[r * 11 + c]);
      rows.push(row);
    }
    var head = ["side: " + scan.side, "coins: " + ($("coins").value || 0), "spent: " + ($("spent").value || 0)];
    if (scan.stars.length) head.push("stars: " + scan.stars.join(" "));
    return head.concat(rows).join("\n") + "\n";
  }

  function requestBody() {
    var alts = {};
    unsure().forEach(function (label) { alts[label] = state.scan.alternatives[label]; });
    return { sheet: sheetNotation(), cards: chosenCards(), season: $("season").value || null,
             alternatives: alts, warnings: warnings(), from_photo: !state.readingChecked };
  }

  // --- drawing: the overlay data comes from front.overlay, the same drawing as the report ---------------
  function drawSheet() {
    var svg = $("overlay"), size = 0;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    state.scan.overlay.forEach(function (c) { size = Math.max(size, c.x + c.size); });
    var origin = state.scan.overlay[0].x, ppc = state.scan.overlay[0].size, box = size + origin;
    // the grid and the coin track below it, cropped out of the canonical image: bigger cells to tap
    var x0 = origin - 0.8 * ppc, y0 = origin - 0.8 * ppc;
    svg.setAttribute("viewBox", x0 + " " + y0 + " " + (box - 2 * x0) + " " + (box - y0));
    svg.appendChild(el("svg:image", { href: state.scan.canonical, x: 0, y: 0, width: box, height: box }));
    state.scan.overlay.forEach(function (c) {
      var sym = symbolOf(c), fixed = !!state.fixes[c.cell], doubt = c.symbol === "?" && !fixed;
      var g = el("svg:g", { id: "c-" + c.cell, "class": "cell" + (doubt ? " doubt" : "") + (fixed ? " fixed" : "")
        + (state.cell === c.cell ? " sel" : ""), "data-cell": c.cell });
      var tinted = sym !== "." && sym !== "?";
      g.appendChild(el("svg:rect", { x: c.x, y: c.y, width: c.size, height: c.size, "class": "tint",
        fill: tinted ? boot.colours[sym] : "none" }));
      g.appendChild(el("svg:rect", { x: c.x, y: c.y, width: c.size, height: c.size, "class": "hit" }));
      if (sym !== ".") g.appendChild(el("svg:text", { x: c.x + 4, y: c.y + 17, "class": "sym" }, sym));
      if (doubt) g.appendChild(el("svg:rect", { x: c.x + 4, y: c.y + 4, width: c.size - 8, height: c.size - 8, "class": "frame" }));
      g.appendChild(el("svg:title", {}, c.cell + (doubt ? " unsure" : "")));
      if (c.symbol !== "^" && c.symbol !== "-") g.addEventListener("click", function () { openPicker(c.cell); });
      svg.appendChild(g);
    });
    if (state.pinned) highlight(state.pinned, true);
  }

  // --- fixing a cell, and the cells drawn like it ------------------------------------------------------
  function peersOf(label) {
    var open = unsure(), groups = state.scan.groups || [];
    for (var i = 0; i < groups.length; i++) {
      if (groups[i].indexOf(label) >= 0) {
        return groups[i].filter(function (c) { return c !== label && open.indexOf(c) >= 0; });
      }
    }
    return [];
  }

  function choiceButton(sym, odds) {
    var b = el("button", { type: "button", "data-symbol": sym });
    var sw = el("span", { "class": "sw" });
    sw.style.background = sym === "." ? "#fff" : boot.colours[sym];
    b.appendChild(sw);
    b.appendChild(document.createTextNode(boot.terrains[sym] + (odds !== undefined ? " " + Math.round(odds * 100) + "%" : "")));
    b.addEventListener("click", function () { choose(sym); });
    return b;
  }

  function openPicker(label) {
    var layer = cellAt(label), odds = state.scan.odds[label] || {};
    state.cell = label;
    $("picker-cell").textContent = label;
    var doubt = layer.symbol === "?" && !state.fixes[label];
    $("picker-hint").textContent = doubt ? "unsure: what is drawn here?" : "read as " + boot.terrains[symbolOf(layer)];
    var choices = $("choices"), others = $("others");
    while (choices.firstChild) choices.removeChild(choices.firstChild);
    while (others.firstChild) others.removeChild(others.firstChild);
    var likely = layer.symbol === "?" ? (state.scan.alternatives[label] || "").split("") : [];
    likely.forEach(function (s) { choices.appendChild(choiceButton(s, odds[s])); });
    DRAWN.forEach(function (s) { if (likely.indexOf(s) < 0) others.appendChild(choiceButton(s)); });
    var peers = doubt ? peersOf(label) : [];
    $("alike").hidden = !peers.length;
    $("alike").setAttribute("data-peers", peers.join(" "));
    // one tick per look-alike: a person unticks only the one that holds something else
    var box = $("alike-peers");
    while (box.firstChild) box.removeChild(box.firstChild);
    peers.forEach(function (p) {
      var tick = el("input", { type: "checkbox", "data-cell": p });
      tick.checked = true;
      var item = el("label", { "class": "peer" });
      item.appendChild(tick);
      item.appendChild(document.createTextNode(" " + p));
      box.appendChild(item);
    });
    $("picker").hidden = false;
    drawSheet();
    $("picker").scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  function closePicker() { $("picker").hidden = true; state.cell = null; }

  function choose(sym) {
    var label = state.cell;
    if (!label) return;
    state.fixes[label] = sym;
    if (!$("alike").hidden) {
      Array.prototype.forEach.call($("alike-peers").querySelectorAll("input:checked"), function (tick) {
        state.fixes[tick.getAttribute("data-cell")] = sym;
      });
    }
    closePicker();
    drawSheet();
    rescore();
  }

  // --- the score -------------------------------------------------------------------------------------
  function rescore() {
    var cards = chosenCards();
    if (!cards.length) { renderNoCards(); return; }
    var seq = ++state.seq;
    fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
                          body: JSON.stringify(requestBody()) })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); })
      .then(function (res) {
        if (seq !== state.seq) return;  // an older answer overtaken by a newer fix
        state.suspect = (res.status === 422 && res.body.suspect) || [];
        if (res.status === 200) renderScore(res.body, null);
        else if (res.status === 422 && res.body.provisional) renderScore(res.body.provisional, res.body.error);
        else { status(res.body.error || "cannot score", true); }
      })
      .catch(function () { status("The server did not answer.", true); });
  }

  function renderNoCards() {
    var banner = $("banner");
    banner.className = "banner refused";
    banner.textContent = "Pick the scoring cards above to see the score.";
    var body = $("score").tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    renderWarnings();
  }

  function row(cells, label, points, why, extra) {
    var tr = el("tr", extra || {});
    if (cells) tr.setAttribute("data-cells", cells.join(" "));
    tr.appendChild(el("td", {}, label[0]));
    var name = el("td", {}, label[1]);
    if (why) name.title = why;
    tr.appendChild(name);
    tr.appendChild(el("td", { "class": "n" }, points));
    if (cells) tr.addEventListener("click", function () { pin(tr); });
    if (cells) tr.addEventListener("mouseenter", function () { if (!state.pinned) highlight(tr, true); });
    if (cells) tr.addEventListener("mouseleave", function () { if (!state.pinned) highlight(tr, false); });
    return tr;
  }

  function highlight(tr, on) {
    (tr.getAttribute("data-cells") || "").split(" ").forEach(function (c) {
      var g = document.getElementById("c-" + c);
      if (g) g.classList.toggle("hl", on);
    });
  }

  function pin(tr) {
    if (state.pinned) { highlight(state.pinned, false); state.pinned.classList.remove("pinned"); }
    if (state.pinned === tr) { state.pinned = null; return; }
    state.pinned = tr; tr.classList.add("pinned"); highlight(tr, true);
  }

  function cardName(id) {
    for (var i = 0; i < boot.cards.length; i++) if (boot.cards[i].id === id) return boot.cards[i].names.en || id;
    return id;
  }

  function renderScore(score, refusal) {
    status("");
    var season = score.season, letters = {}, counted = null;
    if (season) {
      Object.keys(season.edict_letters).forEach(function (l) { letters[season.edict_letters[l]] = l; });
      counted = season.edicts;
    }
    var body = $("score").tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    state.pinned = null;
    Object.keys(score.cards).forEach(function (id) {
      var d = score.details[id], off = counted && !(id in counted);
      body.appendChild(row(d.cells, [letters[id] || "", cardName(id) + (off ? " (not this season)" : "")],
        d.points, d.detail + (d.choice ? " — " + d.choice : ""), off ? { "class": "off" } : {}));
    });
    var coins = season ? season.coins : score.coins, monsters = season ? season.monsters : score.monsters;
    var total = season ? season.total : score.total;
    body.appendChild(row(null, ["", "coins"], coins));
    body.appendChild(row(score.monster_cells, ["", "monsters"], monsters, "empty spaces next to monsters"));
    var t = row(null, ["", "total"], total, null, { "class": "total", id: "total-row" });
    if (refusal) t.children[1].appendChild(el("span", { "class": "provisional" }, " provisional"));
    body.appendChild(t);
    var banner = $("banner");
    while (banner.firstChild) banner.removeChild(banner.firstChild);
    banner.className = refusal ? "banner refused" : "banner";
    banner.appendChild(el("span", { "class": "total", id: "total" }, total));
    var doubtful = score.doubtful;
    banner.appendChild(document.createTextNode(refusal
      ? "needs a look: " + refusal + (unsure().length ? ". Tap the framed cells." : ". Compare the reading with the sheet.")
      : (doubtful && doubtful.cells.length ? "scored: the unsure cells (" + doubtful.cells.join(", ")
          + ") cannot change it." : "scored.")));
    renderWarnings();
    checkSheet(state.seq);
  }

  function checkSheet(seq) {  // check's problems of the sheet as fixed so far, shown under the score
    fetch("/api/check", { method: "POST", headers: { "Content-Type": "application/json" },
                          body: JSON.stringify(requestBody()) })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (seq !== state.seq || !answer.problems) return;
        var ul = $("problems");
        while (ul.firstChild) ul.removeChild(ul.firstChild);
        answer.problems.forEach(function (p) {
          var li = el("li", { "data-cells": p.cells.join(" ") }, p.message);
          ul.appendChild(li);
        });
        $("problems-head").hidden = !answer.problems.length;
      })
      .catch(function () { /* problems are a help, not a must */ });
  }

  function renderWarnings() {
    var ul = $("warnings");
    while (ul.firstChild) ul.removeChild(ul.firstChild);
    warnings().forEach(function (w) {
      var li = el("li", {}, w + " ");
      var b = el("button", { type: "button", "class": "button" }, "I checked it on the sheet");
      b.addEventListener("click", function () { state.confirmed[w] = true; rescore(); });
      li.appendChild(b);
      ul.appendChild(li);
    });
    if (state.suspect.length) {  // the reading contradicts itself: look, fix, or say the sheet is so
      var li = el("li", {}, "The reading contradicts itself (" + state.suspect.map(function (p) {
        return p.code + " " + p.cells.join(" "); }).join("; ") + "): a space or star may be misread. ");
      var b = el("button", { type: "button", "class": "button" }, "I checked it on the sheet");
      b.addEventListener("click", function () { state.readingChecked = true; rescore(); });
      li.appendChild(b);
      ul.appendChild(li);
    }
  }

  // --- the .sheet to keep ----------------------------------------------------------------------------------
  function download() {
    var body = requestBody();
    body.title = "read by cartoscan from " + state.name;
    fetch("/api/sheet", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { if (!r.ok) throw new Error(); return r.blob(); })
      .then(function (blob) {
        var a = el("a", { href: URL.createObjectURL(blob),
          download: (state.name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "map") + ".sheet" });
        document.body.appendChild(a); a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      })
      .catch(function () { status("The sheet could not be made.", true); });
  }

  function downloadReport() {
    var form = new FormData();
    form.append("photo", state.file, state.name);
    form.append("cards", chosenCards().join(","));
    form.append("season", $("season").value || "");
    form.append("fixes", Object.keys(state.fixes).map(function (k) { return k + "=" + state.fixes[k]; }).join(","));
    form.append("title", state.name);
    status("Making the report …");
    fetch("/api/report", { method: "POST", body: form })
      .then(function (r) {
        if (!r.ok) return r.json().then(function (j) { throw new Error(j.error || "no report"); });
        return r.blob();
      })
      .then(function (blob) {
        status("");
        var a = el("a", { href: URL.createObjectURL(blob),
          download: (state.name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "report") + ".html" });
        document.body.appendChild(a); a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      })
      .catch(function (e) { status(e.message || "The report could not be made.", true); });
  }

  // --- wiring ---------------------------------------------------------------------------------------------
  fillCards();
  $("camera").addEventListener("change", function () { onFile(this); });
  $("upload").addEventListener("change", function () { onFile(this); });
  LETTERS.forEach(function (l) {
    $("card-" + l).addEventListener("change", function () {
      remember(); $("setup-summary").textContent = summary(); if (state.scan) rescore();
    });
  });
  $("season").addEventListener("change", function () { remember(); if (state.scan) rescore(); });
  $("setup-change").addEventListener("click", function () { $("setup").classList.remove("compact"); });
  ["coins", "spent"].forEach(function (id) {
    $(id).addEventListener("change", function () {
      state.scan.warnings.forEach(function (w) { if (w.indexOf("coin") === 0) state.confirmed[w] = true; });
      rescore();
    });
  });
  $("picker-close").addEventListener("click", function () { closePicker(); drawSheet(); });
  $("download").addEventListener("click", download);
  $("report").addEventListener("click", downloadReport);
  $("again").addEventListener("click", function () {
    $("result").hidden = true; state.scan = null; $("setup").classList.remove("compact"); window.scrollTo(0, 0);
  });
})();
