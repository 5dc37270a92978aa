/* Wort-Kniffel: the throw as dice, throws left, the hourglass as a countdown ring, what the
   camera found on the paper pad, every player's pad, entering a box with its words (the server checks them), striking a box, a chart
   of the totals by round; the advisor card shows the best entry of every open box and which
   dice to keep. Reads the game's view JSON (companion/games/kniffel/view.py). */
(function () {
  "use strict";
  var C = window.Companion;
  var SEAT_COLOURS = ["#ef4444", "#22c55e", "#3b82f6", "#facc15"];

  var t = C.t;
  var ensureStyle = C.stylesheet("kniffel");

  function seatColour(snap, i) {
    var p = (snap.players || [])[i];
    return p && p.colour ? C.ledColour(p.colour, i) : SEAT_COLOURS[i % SEAT_COLOURS.length];
  }

  function boxName(key) { return t("box." + key); }

  function throwsLeft(n) {
    return n === 1 ? t("kn.throws_left_1") : n === 0 ? t("kn.throws_left_0") : t("kn.throws_left", { n: n });
  }

  /* A die from above: the letter and its value in the corner, the diamond as ◆. */
  function die(face, i, opts) {
    var joker = face.letter === "*";
    var node = C.el(opts.onTap ? "button" : "div", {
      class: "kn-die" + (joker ? " joker" : "") + (opts.kept ? " kept" : "") + (face.letter === "?" ? " unsure" : ""),
      type: opts.onTap ? "button" : null, dataset: { die: String(i), letter: face.letter },
      "aria-label": (joker ? "◆" : face.letter) + (face.value ? " " + face.value : ""),
      onclick: opts.onTap ? function () { opts.onTap(i); } : null
    }, C.el("span", { class: "kn-letter", text: joker ? "◆" : face.letter }),
      joker || face.value === null || face.value === undefined ? null : C.el("sub", { class: "kn-value", text: String(face.value) }));
    if (opts.kept) node.appendChild(C.el("span", { class: "kn-kept", text: t("kn.kept") }));
    return node;
  }

  /* The hourglass as a ring that empties; it counts down on the phone between live updates
     and stops where the table says it is paused. */
  var ring = { node: null, timer: null, left: 0, at: 0, seconds: 1, paused: false, warn: 10, tick: null };
  function drawRing(box, snap) {
    var tm = snap.timer;
    var R = 26, L = 2 * Math.PI * R;
    var svg = C.svg("svg", { viewBox: "0 0 64 64", class: "kn-ring", id: "kn-ring", role: "timer",
      "aria-label": t("kn.hourglass") });
    svg.appendChild(C.svg("circle", { cx: 32, cy: 32, r: R, class: "kn-ring-bg" }));
    var arc = C.svg("circle", { cx: 32, cy: 32, r: R, class: "kn-ring-sand", "stroke-dasharray": L.toFixed(1),
      transform: "rotate(-90 32 32)" });
    svg.appendChild(arc);
    var label = C.svg("text", { x: 32, y: 37, "text-anchor": "middle", class: "kn-ring-text", id: "kn-left" });
    svg.appendChild(label);
    var wrap = C.el("div", { class: "kn-hourglass" }, svg);
    box.appendChild(wrap);
    ring.seconds = tm ? tm.seconds : (snap.view || {}).hourglass_s || 90;
    ring.left = tm ? tm.left_s : ring.seconds;
    ring.at = Date.now();
    ring.paused = !tm || !!tm.paused;
    ring.warn = tm ? tm.warn_s : 10;
    function paint() {
      var left = ring.paused ? ring.left : Math.max(0, ring.left - (Date.now() - ring.at) / 1000);
      if ((snap.view || {}).time_up) left = 0;
      arc.setAttribute("stroke-dashoffset", (L * (1 - left / Math.max(1, ring.seconds))).toFixed(1));
      label.textContent = String(Math.ceil(left));
      wrap.classList.toggle("hurry", !ring.paused && left > 0 && left <= ring.warn);
      wrap.classList.toggle("idle", !tm);
    }
    clearInterval(ring.tick);
    paint();
    if (tm && !tm.paused) ring.tick = setInterval(paint, 250);
    if (tm && tm.paused) wrap.appendChild(C.el("span", { class: "kn-paused", text: t("kn.paused") }));
  }

  function drawTurn(box, snap, view, canEdit, state) {
    var card = C.el("section", { class: "card kn-turn", id: "kn-turn" });
    var head = C.el("div", { class: "kn-turn-head" });
    head.appendChild(C.el("div", {}, C.el("h2", { text: t("kn.throw") }),
      C.el("span", { class: "kn-left", id: "kn-throws-left", text: throwsLeft(view.rolls_left) })));
    drawRing(head, snap);
    card.appendChild(head);
    var dice = C.el("div", { class: "kn-dice", id: "kn-dice" });
    if (view.throw) {
      view.throw.forEach(function (f, i) {
        dice.appendChild(die(f, i, { kept: (view.kept || []).indexOf(i) >= 0,
          onTap: canEdit && !view.time_up ? function (k) { openFix(snap, view, k); } : null }));
      });
    } else {
      dice.appendChild(C.el("p", { class: "hint", text: t("kn.no_throw") }));
    }
    card.appendChild(dice);
    if (view.time_up) card.appendChild(C.el("p", { class: "kn-timeup", id: "kn-timeup", role: "alert", text: t("kn.time_up") }));
    else if (view.throw && canEdit) card.appendChild(C.el("p", { class: "hint", text: t("kn.tap_die") }));
    if (canEdit && !view.time_up && view.rolls_left > 0) {
      var input = C.el("input", { type: "text", id: "kn-throw-input", maxlength: "40", autocomplete: "off",
        autocapitalize: "characters", placeholder: t("kn.throw_placeholder"), "aria-label": t("kn.type_throw"),
        value: state.throwText || "", oninput: function () { state.throwText = input.value; } });
      card.appendChild(C.el("form", { class: "kn-row", id: "kn-throw-form", onsubmit: function (e) {
        e.preventDefault();
        C.act({ action: "throw", dice: input.value }).then(function () { state.throwText = ""; }, function () {});
      } }, input, C.el("button", { class: "btn", type: "submit", id: "kn-send-throw" }, t("kn.send_throw"))));
    }
    box.appendChild(card);
  }

  /* Correct one die: every letter the set has (and the diamond); the value follows the set. */
  function openFix(snap, view, index) {
    openPicker(view, t("kn.fix_title", { n: index + 1 }), view.throw[index].letter, function (letter) {
      var faces = view.throw.map(function (f, i) { return i === index ? letter : (f.letter === "*" ? "*" : f.letter + f.value); });
      C.act({ action: "throw", dice: faces.join(" "), fix: true }).catch(function () {});
    });
  }

  function openPicker(view, title, current, chosen) {
    var old = document.getElementById("sheet");
    if (old) old.remove();
    var choices = C.el("div", { class: "sheet-tiles kn-choices" });
    (view.letters || []).forEach(function (letter) {
      choices.appendChild(C.el("button", { type: "button", class: "kn-pick" + (letter === current ? " current" : ""),
        dataset: { letter: letter }, onclick: function () { sheet.remove(); chosen(letter); } },
        letter === "*" ? "◆" : letter));
    });
    var sheet = C.el("div", { class: "sheet", id: "sheet", role: "dialog", "aria-modal": "true" },
      C.el("div", { class: "sheet-body" },
        C.el("h3", { text: title }), choices,
        C.el("div", { class: "sheet-actions" },
          C.el("button", { class: "btn", type: "button", onclick: function () { sheet.remove(); } }, C.t("correct.cancel")))));
    sheet.addEventListener("click", function (e) { if (e.target === sheet) sheet.remove(); });
    document.body.appendChild(sheet);
  }

  /* The camera is unsure of some dice: its dice, the doubtful ones tapped to say what they
     show, then the whole throw sent (the table takes it as the throw). */
  function drawQuestion(box, snap, view, canEdit, state) {
    var p = snap.prompt;
    if (!p || !p.dice) return;
    var card = C.el("section", { class: "card kn-question", id: "kn-question" });
    card.appendChild(C.el("h2", { text: t(p.code === "dice_unsure" ? "kn.question" : "kn.question_refused") }));
    if (p.code !== "dice_unsure") card.appendChild(C.el("p", { class: "kn-error", text: C.refusal(p) }));
    var key = JSON.stringify(p.dice);
    if (state.answerFor !== key) { state.answerFor = key; state.answer = p.dice.map(function (d) { return d.letter; }); }
    var dice = C.el("div", { class: "kn-dice" });
    p.dice.forEach(function (d, i) {
      dice.appendChild(die({ letter: state.answer[i], value: d.value }, i, {
        onTap: canEdit ? function (k) {
          openPicker(view, t("kn.fix_title", { n: k + 1 }), state.answer[k], function (letter) {
            state.answer[k] = letter;
            renderer.render(document.getElementById("game-root"), snap, { canEdit: canEdit });
          });
        } : null }));
    });
    card.appendChild(dice);
    if (canEdit) {
      var ready = state.answer.indexOf("?") < 0;
      card.appendChild(C.el("button", { class: "btn btn-primary", type: "button", id: "kn-answer", disabled: !ready,
        onclick: function () { C.act({ action: "throw", dice: state.answer.join(" ") }).catch(function () {}); } },
        t("kn.answer")));
    }
    box.appendChild(card);
  }

  /* What the camera found on the paper pad against the record: disagreements told, and a number
     the player on turn wrote offered as the entry (taken only by tapping). A finding the record
     has since moved past (the offer taken, the box corrected) is not shown. */
  function padRowName(row) {
    var sums = { upper: "kn.upper", bonus: "kn.bonus", lower: "kn.lower", total: "kn.total" };
    return sums[row] ? t(sums[row]) : boxName(row);
  }

  function stillStands(f, view) {
    var p = (view.players || [])[f.seat];
    if (!p) return false;
    var recorded = f.kind === "sum" ? p[f.row] : p.boxes[f.row];
    if (f.kind !== "offer") return recorded === (f.expected === undefined ? null : f.expected);
    return recorded === null && view.seat === f.seat && (!!view.throw || (f.written === 0 && view.time_up));
  }

  function drawPadCheck(box, snap, view, canEdit) {
    var pad = (snap.seen || {}).pad;
    var found = ((pad && pad.findings) || []).filter(function (f) { return stillStands(f, view); });
    if (!found.length) return;
    var faults = found.filter(function (f) { return f.kind !== "offer"; });
    var offers = found.filter(function (f) { return f.kind === "offer"; });
    var card = C.el("section", { class: "card kn-padcheck", id: "kn-padcheck", role: "status" });
    function said(f) {
      return { player: f.player, box: padRowName(f.row), expected: f.expected === null ? "" : String(f.expected),
        written: f.struck ? t("kn.pad_struck") : String(f.written) };
    }
    if (faults.length) {
      card.appendChild(C.el("h2", { text: t("kn.pad_title") }));
      var list = C.el("ul", { class: "kn-padcheck-list" });
      faults.forEach(function (f) {
        list.appendChild(C.el("li", { class: "kn-pad-" + f.kind, dataset: { seat: String(f.seat), row: f.row },
          text: t("kn.pad_" + f.kind, said(f)) }));
      });
      card.appendChild(list);
    }
    offers.forEach(function (f) {
      card.appendChild(C.el("h2", { text: t("kn.pad_offer_title") }));
      card.appendChild(C.el("p", { class: "kn-pad-offer", dataset: { seat: String(f.seat), row: f.row },
        text: t(f.written === 0 ? "kn.pad_offer_strike" : "kn.pad_offer", said(f)) }));
      if (canEdit) {
        card.appendChild(C.el("button", { class: "btn btn-primary", type: "button", id: "kn-pad-take", dataset: { row: f.row },
          onclick: function () { C.act({ action: "event", event: f.event }).catch(function () {}); } }, t("kn.pad_take")));
      }
    });
    box.appendChild(card);
  }

  function openBoxes(view) {
    var p = (view.players || [])[view.seat] || { boxes: {} };
    return (view.boxes || []).filter(function (b) { return p.boxes[b] === null; });
  }

  function drawEntry(box, snap, view, state) {
    if (view.finished || (!view.throw && !view.time_up)) return;
    var card = C.el("section", { class: "card kn-entry", id: "kn-entry" });
    card.appendChild(C.el("h2", { text: t("kn.entry", { name: view.current }) }));
    var open = openBoxes(view);
    if (open.indexOf(state.pick) < 0) state.pick = open[0] || "";
    var select = C.el("select", { id: "kn-box", "aria-label": t("kn.box"), onchange: function () { state.pick = select.value; } });
    open.forEach(function (b) { select.appendChild(C.el("option", { value: b, text: boxName(b), selected: b === state.pick })); });
    card.appendChild(C.el("label", { for: "kn-box", text: t("kn.box") }));
    card.appendChild(select);
    var words = C.el("input", { type: "text", id: "kn-words", maxlength: "80", autocomplete: "off",
      autocapitalize: "characters", placeholder: t("kn.words_placeholder"), value: state.words || "",
      disabled: !!view.time_up, oninput: function () { state.words = words.value; } });
    var tableOk = C.el("input", { type: "checkbox", id: "kn-table-ok", disabled: !!view.time_up });
    if (!view.time_up) {
      card.appendChild(C.el("label", { for: "kn-words", text: t("kn.words") }));
      card.appendChild(words);
      card.appendChild(C.el("label", { class: "switch", for: "kn-table-ok" }, tableOk, C.el("span", { text: t("kn.table_ok") })));
    }
    var error = C.el("p", { class: "kn-error", id: "kn-error", role: "alert", hidden: !state.error, text: state.error || "" });
    function sent() { state.words = ""; state.error = null; }
    function refused(err) {
      var body = err && err.body;
      if (!body || body.error !== "refused") return;
      state.error = t("kn.refused", { reason: C.refusal(body) });
      error.textContent = state.error;
      error.hidden = false;
    }
    var actions = C.el("div", { class: "kn-row" });
    if (!view.time_up) {
      actions.appendChild(C.el("button", { class: "btn btn-primary", type: "button", id: "kn-enter", onclick: function () {
        state.error = null;
        var list = words.value.split(/[\s,;]+/).filter(function (w) { return w; });
        C.act({ action: "enter", box: select.value, words: list, table_ok: tableOk.checked }).then(sent, refused);
      } }, t("kn.enter")));
    }
    actions.appendChild(C.el("button", { class: "btn btn-ghost", type: "button", id: "kn-strike", onclick: function () {
      state.error = null;
      C.act({ action: "zero", box: select.value }).then(sent, refused);
    } }, t("kn.strike")));
    card.appendChild(actions);
    card.appendChild(error);
    box.appendChild(card);
  }

  function drawPads(box, snap, view) {
    var card = C.el("section", { class: "card kn-pads", id: "kn-pads" });
    card.appendChild(C.el("h2", { text: t("kn.pads") }));
    var table = C.el("table", { class: "kn-pad", id: "kn-pad" });
    var headRow = C.el("tr", {}, C.el("th", { scope: "col" }));
    view.players.forEach(function (p, i) {
      var th = C.el("th", { scope: "col", class: i === view.seat ? "on-turn" : "", text: p.name });
      th.style.setProperty("--seat", seatColour(snap, i));
      headRow.appendChild(th);
    });
    table.appendChild(C.el("thead", {}, headRow));
    var body = C.el("tbody");
    function row(label, cls, cell) {
      var tr = C.el("tr", { class: cls || "" }, C.el("th", { scope: "row", text: label }));
      view.players.forEach(function (p, i) { tr.appendChild(cell(p, i)); });
      body.appendChild(tr);
    }
    function sumCell(key) { return function (p, i) { return C.el("td", { class: "sum" + (i === view.seat ? " on-turn" : ""), text: String(p[key]) }); }; }
    view.boxes.forEach(function (b) {
      row(boxName(b), view.upper_boxes.indexOf(b) >= 0 ? "upper" : "lower", function (p, i) {
        var v = p.boxes[b];
        var words = (p.words || {})[b] || [];
        var td = C.el("td", { class: (v === null ? "open" : v === 0 ? "struck" : "filled") + (i === view.seat ? " on-turn" : ""),
          dataset: { box: b, player: String(i) } });
        td.appendChild(C.el("b", { text: v === null ? "·" : String(v), title: v === null ? t("kn.open") : null }));
        if (words.length) td.appendChild(C.el("small", { text: words.join(" ") }));
        return td;
      });
      if (b === view.upper_boxes[view.upper_boxes.length - 1]) {
        row(t("kn.upper"), "sums", sumCell("upper"));
        row(t("kn.bonus"), "sums", sumCell("bonus"));
      }
    });
    row(t("kn.lower"), "sums", sumCell("lower"));
    if (view.players.some(function (p) { return p.kniffel_extra; })) row(t("kn.extra"), "sums", sumCell("kniffel_extra"));
    row(t("kn.total"), "total", sumCell("total"));
    table.appendChild(body);
    card.appendChild(C.el("div", { class: "kn-pad-wrap" }, table));
    box.appendChild(card);
  }

  function drawChart(box, snap, view) {
    var card = C.el("section", { class: "card", id: "kn-chart-card" });
    card.appendChild(C.el("h2", { text: t("kn.chart") }));
    var lines = view.chart || [];
    var n = Math.max.apply(null, [0].concat(lines.map(function (l) { return l.length; })));
    if (!n) {
      card.appendChild(C.el("p", { class: "hint", text: t("kn.chart_empty") }));
      box.appendChild(card);
      return;
    }
    var drawn = C.lineChart({ id: "kn-chart", cls: "kn-chart", label: t("kn.chart"), legendClass: "kn-legend",
      dataKey: "data-player", xMax: view.rounds, xStep: 2, hi: 50,
      step: Math.max.apply(null, [0].concat.apply([0], lines)) > 200 ? 100 : 50,
      series: lines.map(function (points, i) { return { name: view.players[i].name, colour: seatColour(snap, i), points: points }; }) });
    card.appendChild(drawn[0]);
    card.appendChild(drawn[1]);
    box.appendChild(card);
  }

  var renderer = {
    title: "Wort-Kniffel",

    render: function (root, snap, ui) {
      ensureStyle();
      var view = snap.view || {};
      if (!view.players) return;
      var state = root._kniffel;
      if (!state || !root.contains(state.box)) {
        C.clear(root);
        state = root._kniffel = { box: C.el("div", { class: "kn-page" }), pick: "", words: "", throwText: "", error: null };
        root.appendChild(state.box);
      }
      var canEdit = !!(ui && ui.canEdit) && !view.finished;
      // a new throw or turn clears what was typed for the last one
      var turnKey = view.turn + "/" + view.rolls + "/" + view.roll;
      if (state.turnKey !== turnKey) { state.turnKey = turnKey; state.error = null; if (state.lastTurn !== view.turn) state.words = ""; state.lastTurn = view.turn; }
      var focused = document.activeElement && state.box.contains(document.activeElement) ? document.activeElement.id : null;
      C.clear(state.box);
      drawQuestion(state.box, snap, view, canEdit, state);
      drawPadCheck(state.box, snap, view, canEdit);
      drawTurn(state.box, snap, view, canEdit, state);
      if (canEdit) drawEntry(state.box, snap, view, state);
      drawPads(state.box, snap, view);
      drawChart(state.box, snap, view);
      state.box.appendChild(C.el("p", { class: "hint kn-buttons", id: "kn-buttons", text: t("kn.buttons") }));
      if (focused) { var again = document.getElementById(focused); if (again && again.focus) again.focus(); }
    },

    banner: function (snap) {
      var view = snap.view || {};
      if (view.finished) {
        var names = view.winners || [];
        var best = Math.max.apply(null, view.players.map(function (p) { return p.total; }));
        var seat = view.players.map(function (p) { return p.name; }).indexOf(names[0]);
        return { text: names.length === 1 ? t("kn.won", { name: names[0], points: best }) : t("kn.won_many", { names: names.join(", ") }),
          tone: "win", colour: seat >= 0 ? seatColour(snap, seat) : null };
      }
      var sub = t("kn.round", { n: view.round, of: view.rounds });
      if (view.rolls) sub += " · " + t("kn.throw_n", { n: view.rolls });
      return { text: t("kn.turn", { name: view.current }), sub: sub, tone: view.time_up ? "warn" : "turn",
        colour: seatColour(snap, view.seat) };
    },

    badges: function (snap, index) {
      var p = ((snap.view || {}).players || [])[index];
      return p ? [{ text: t("kn.pts", { n: p.total }), tone: "info" }] : [];
    },

    onTurn: function (snap, index) {
      var view = snap.view || {};
      return !view.finished && view.seat === index;
    },

    controls: function (snap) {
      var view = snap.view || {};
      if (view.finished) return [];
      var out = [];
      if (!view.hourglass && !view.time_up && !view.rolls) {
        out.push({ id: "hourglass", label: "⏳ " + t("kn.start_hourglass"), tone: "primary",
          action: { action: "event", event: { type: "start_hourglass" } } });
      }
      if (snap.timer) {
        out.push({ id: "pause", label: snap.timer.paused ? "▶ " + t("kn.resume") : "⏸ " + t("kn.pause"),
          action: { action: "timer", pause: !snap.timer.paused } });
      }
      return out;
    },

    /* The advisor card: the best entry of every open box, best first, and which dice to keep. */
    advisor: function (box, snap) {
      var a = snap.advisor || {};
      var view = snap.view || {};
      if (!a.best) { box.appendChild(C.el("p", { class: "hint", text: t("kn.advisor_wait") })); return; }
      if (a.keep) {
        var faces = (view.throw || []);
        var kept = a.keep.dice.map(function (i) { var f = faces[i] || {}; return f.letter === "*" ? "◆" : f.letter; }).join(" ");
        var text = a.keep.dice.length === faces.length ? t("kn.keep_all", { stand: a.keep.stand })
          : a.keep.dice.length === 0 ? t("kn.keep_none", { expected: a.keep.expected, stand: a.keep.stand })
          : t("kn.keep", { dice: kept, expected: a.keep.expected, stand: a.keep.stand });
        box.appendChild(C.el("p", { class: "kn-keep", id: "kn-keep", text: text }));
      }
      box.appendChild(C.el("h3", { text: t("kn.best") }));
      if (!a.best.length) { box.appendChild(C.el("p", { class: "hint", text: t("kn.nothing_fits") })); return; }
      var list = C.el("ol", { class: "kn-best", id: "kn-best" });
      a.best.forEach(function (b) {
        list.appendChild(C.el("li", { dataset: { box: b.box } },
          C.el("b", { text: String(b.score) }), C.el("span", { text: boxName(b.box) }),
          b.words.length ? C.el("small", { text: b.words.join(" · ") }) : null));
      });
      box.appendChild(list);
    },

    players: { min: 2, max: 4 },

    setupFields: function (box) {
      var select = C.el("select", { id: "kn-hourglass-s" });
      [60, 90, 120, 180].forEach(function (s) {
        select.appendChild(C.el("option", { value: String(s), text: t("kn.seconds", { s: s }), selected: s === 90 }));
      });
      box.appendChild(C.el("label", { for: "kn-hourglass-s", text: t("kn.hourglass_s") }));
      box.appendChild(select);
    },

    readSetup: function (box, names) {
      var s = box.querySelector("#kn-hourglass-s");
      return { players: names, hourglass_s: Number(s && s.value || 90) };
    },

    describe: function (event) {
      if (!event) return C.t("history.start");
      var values = { dice: event.dice || "", box: event.box ? boxName(event.box) : "" };
      return t("kn.event." + event.type, values) + (event.words && event.words.length ? " — " + event.words.join(", ") : "");
    }
  };
  C.games.kniffel = renderer;
})();
