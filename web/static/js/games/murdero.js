/* Murdero: the running score table to 100 (pairs: 200), a chart of the totals over the hands,
   each hand's points with the reason for every number, the hand entry (tap the cards each player
   has in play and in hand) and the action-card reference. Reads the game's view JSON
   (companion/games/murdero/rules.py: view); the server scores and validates every hand. */
(function () {
  "use strict";
  var C = window.Companion;
  var W = C.words.murdero;  // labels and how codes are worded: static/js/words/murdero.js
  var COLOURS = ["red", "blue", "green"];
  var LETTER = { red: "R", blue: "B", green: "G" };
  var NUMBERS = [1, 2, 3, 4, 5];
  var ENDINGS = ["case", "removal", "reverse_charges", "overtime"];
  var SIDE_COLOURS = ["#e0a93b", "#60a5fa", "#f87171", "#4ade80"];

  var t = C.t;

  var ensureStyle = C.stylesheet("murdero");  // linked at the first render


  /* A side's colour is its (first) player's LED colour, so the page matches the table's lights. */
  var sideColours = [];
  function sideColour(i) { return sideColours[i] || SIDE_COLOURS[i % SIDE_COLOURS.length]; }
  function setSideColours(snap, view) {
    sideColours = (view.sides || []).map(function (side, i) {
      var seat = (view.players || []).map(function (p) { return p.name; }).indexOf(side.players[0]);
      var p = (snap.players || [])[seat];
      return p && p.colour ? C.ledColour(p.colour, seat) : SIDE_COLOURS[i % SIDE_COLOURS.length];
    });
  }

  /* --- the hand being entered (kept across live updates) ------------------------------------ */

  function emptyDraft(view) {
    return {
      key: JSON.stringify(view.players.map(function (p) { return p.name; })),
      players: view.players.map(function (p) { return { name: p.name, cases: [], permanents: [], held: [] }; }),
      ended_by: "case", tab: 0, correcting: null, error: null
    };
  }

  function draftFromHand(view, hand) {
    var d = emptyDraft(view);
    d.correcting = hand.number;
    d.ended_by = hand.ended_by;
    d.players = hand.table.map(function (p) {
      return {
        name: p.name,
        cases: p.cases.map(function (c) { return { colour: c.colour, cards: c.cards.slice(), joker: c.joker }; }),
        permanents: p.permanents.filter(function (a) { return a !== "joker"; }),
        held: p.held.slice()
      };
    });
    return d;
  }

  function handJSON(d) {
    return {
      players: d.players.map(function (p) {
        return {
          name: p.name,
          cases: p.cases.map(function (c) {
            return { colour: c.colour, cards: c.cards.slice().sort(), joker: c.joker };
          }),
          permanents: p.permanents.slice(),
          held: p.held.slice()
        };
      }),
      ended_by: d.ended_by
    };
  }

  function cardChip(colour, n, onclick, extra) {
    return C.el("button", { type: "button", class: "mu-card mu-" + colour + (extra ? " " + extra : ""),
      onclick: onclick, "aria-label": t("colour." + colour) + " " + n }, C.el("b", { text: String(n) }));
  }

  function titleOf(view, id) {
    var ref = (view.reference || []).filter(function (r) { return r.id === id; })[0];
    return ref ? ref.title : id;
  }

  function heldChip(view, token, onclick) {
    var m = /^([RBG])([1-5])$/.exec(token);
    if (m) {
      var colour = { R: "red", B: "blue", G: "green" }[m[1]];
      return cardChip(colour, m[2], onclick, "small");
    }
    return C.el("button", { type: "button", class: "mu-action-chip", onclick: onclick }, titleOf(view, token));
  }

  function drawEntry(box, view, state, redraw) {
    var d = state.draft;
    var card = C.el("section", { class: "card mu-entry", id: "mu-entry" });
    card.appendChild(C.el("h2", { text: d.correcting ? t("mu.entry_correct", { n: d.correcting }) : t("mu.entry") }));
    card.appendChild(C.el("p", { class: "hint", text: t("mu.entry_hint") }));

    var tabs = C.el("div", { class: "mu-tabs", role: "tablist" });
    d.players.forEach(function (p, i) {
      var count = p.cases.reduce(function (n, c) { return n + c.cards.length; }, 0);
      tabs.appendChild(C.el("button", { type: "button", role: "tab", class: "mu-tab" + (i === d.tab ? " on" : ""),
        "aria-selected": i === d.tab ? "true" : "false", dataset: { player: p.name },
        onclick: function () { d.tab = i; redraw(); } },
        C.el("span", { text: p.name }), count || p.held.length ? C.el("small", { text: count + "·" + p.held.length }) : null));
    });
    card.appendChild(tabs);

    var p = d.players[d.tab];
    var panel = C.el("div", { class: "mu-player", dataset: { player: p.name } });
    p.cases.forEach(function (c, ci) {
      var row = C.el("div", { class: "mu-case mu-case-" + c.colour, dataset: { case: String(ci), colour: c.colour } });
      row.appendChild(C.el("div", { class: "mu-case-head" },
        C.el("strong", { text: t("mu.case", { colour: t("colour." + c.colour) }) }),
        C.el("button", { type: "button", class: "mu-x", "aria-label": t("mu.remove_case"), title: t("mu.remove_case"),
          onclick: function () { p.cases.splice(ci, 1); redraw(); } }, "✕")));
      var laid = C.el("div", { class: "mu-laid" });
      c.cards.slice().sort().forEach(function (n) {
        laid.appendChild(cardChip(c.colour, n, function () {
          c.cards.splice(c.cards.indexOf(n), 1); redraw();
        }, "laid"));
      });
      if (c.joker) {
        laid.appendChild(C.el("button", { type: "button", class: "mu-card mu-joker laid",
          onclick: function () { c.joker = null; redraw(); } }, C.el("b", { text: "J" }), C.el("small", { text: String(c.joker) })));
      }
      if (!c.cards.length && !c.joker) laid.appendChild(C.el("span", { class: "hint", text: t("mu.cards_hint") }));
      row.appendChild(laid);
      var pad = C.el("div", { class: "mu-pad" });
      NUMBERS.forEach(function (n) {
        pad.appendChild(C.el("button", { type: "button", class: "mu-num mu-" + c.colour, dataset: { add: String(n) },
          onclick: function () { c.cards.push(n); redraw(); } }, "+" + n));
      });
      row.appendChild(pad);
      var joker = C.el("div", { class: "mu-joker-row" }, C.el("span", { text: t("mu.joker") }));
      [null, 2, 3, 4, 5].forEach(function (n) {
        joker.appendChild(C.el("button", { type: "button", class: "mu-mini" + (c.joker === n ? " on" : ""),
          dataset: { joker: String(n) }, onclick: function () { c.joker = n; redraw(); } }, n === null ? "—" : String(n)));
      });
      row.appendChild(joker);
      panel.appendChild(row);
    });
    if (p.cases.length < 3) {
      var adds = C.el("div", { class: "mu-add-cases" });
      COLOURS.forEach(function (colour) {
        adds.appendChild(C.el("button", { type: "button", class: "btn mu-add mu-" + colour, dataset: { addCase: colour },
          onclick: function () { p.cases.push({ colour: colour, cards: [], joker: null }); redraw(); } },
          t("mu.add_case", { colour: t("colour." + colour) })));
      });
      panel.appendChild(adds);
    }

    panel.appendChild(C.el("h3", { text: t("mu.permanents") }));
    var perms = C.el("div", { class: "mu-chips" });
    (view.reference || []).filter(function (r) { return r.kind === "permanent" && r.id !== "joker"; }).forEach(function (r) {
      var on = p.permanents.indexOf(r.id) >= 0;
      perms.appendChild(C.el("button", { type: "button", class: "mu-toggle" + (on ? " on" : ""), "aria-pressed": on ? "true" : "false",
        dataset: { permanent: r.id }, onclick: function () {
          if (on) p.permanents.splice(p.permanents.indexOf(r.id), 1); else p.permanents.push(r.id);
          redraw();
        } }, r.title));
    });
    panel.appendChild(perms);

    panel.appendChild(C.el("h3", { text: t("mu.held") }));
    var held = C.el("div", { class: "mu-laid mu-held" });
    p.held.forEach(function (token, hi) {
      held.appendChild(heldChip(view, token, function () { p.held.splice(hi, 1); redraw(); }));
    });
    if (!p.held.length) held.appendChild(C.el("span", { class: "hint", text: t("mu.none_held") }));
    panel.appendChild(held);
    var grid = C.el("div", { class: "mu-held-grid" });
    COLOURS.forEach(function (colour) {
      NUMBERS.forEach(function (n) {
        grid.appendChild(C.el("button", { type: "button", class: "mu-num mu-" + colour, dataset: { hold: LETTER[colour] + n },
          onclick: function () { p.held.push(LETTER[colour] + n); redraw(); } }, String(n)));
      });
    });
    panel.appendChild(grid);
    var actions = C.el("div", { class: "mu-chips" });
    (view.reference || []).forEach(function (r) {
      actions.appendChild(C.el("button", { type: "button", class: "mu-toggle", dataset: { holdAction: r.id },
        onclick: function () { p.held.push(r.id); redraw(); } }, "+ " + r.title));
    });
    panel.appendChild(C.el("details", { class: "mu-fold" }, C.el("summary", { text: t("mu.held_actions") }), actions));
    card.appendChild(panel);

    card.appendChild(C.el("h3", { text: t("mu.ended_by") }));
    var ends = C.el("div", { class: "mu-chips mu-ends", role: "radiogroup" });
    ENDINGS.forEach(function (e) {
      ends.appendChild(C.el("button", { type: "button", role: "radio", class: "mu-toggle" + (d.ended_by === e ? " on" : ""),
        "aria-checked": d.ended_by === e ? "true" : "false", dataset: { ending: e },
        onclick: function () { d.ended_by = e; redraw(); } }, t("mu.ended." + e)));
    });
    card.appendChild(ends);

    if (d.error) card.appendChild(C.el("p", { class: "mu-error", id: "mu-error", role: "alert", text: t("mu.refused", { reason: d.error }) }));
    var buttons = C.el("div", { class: "mu-submit" });
    buttons.appendChild(C.el("button", { type: "button", class: "btn btn-primary", id: "mu-score",
      onclick: function () {
        var event = d.correcting
          ? { type: "hand_corrected", number: d.correcting, hand: handJSON(d) }
          : { type: "hand_entered", hand: handJSON(d) };
        var number = d.correcting || (view.hands || []).length + 1;
        d.error = null;  // a new try: the last refusal's reason must not outlive it on screen
        C.act({ action: "event", event: event }).then(function () {
          state.draft = null;
          state.rerender();
          C.toast(t("mu.scored", { n: number }), "win");
        }, function (err) {
          d.error = (err && err.body && C.refusal(err.body, "murdero")) || (err && err.message) || "?";
          redraw();
        });
      } }, d.correcting ? t("mu.save") : t("mu.score")));
    buttons.appendChild(C.el("button", { type: "button", class: "btn btn-ghost", id: "mu-clear",
      onclick: function () { state.draft = emptyDraft(view); redraw(); } }, d.correcting ? t("mu.cancel") : t("mu.clear")));
    card.appendChild(buttons);
    box.appendChild(card);
  }

  /* --- what was scored ------------------------------------------------------------------------ */

  function drawTotals(box, snap, view) {
    var card = C.el("section", { class: "card mu-totals", id: "mu-totals" });
    card.appendChild(C.el("h2", { text: t("mu.totals") + " · " + t("mu.to", { n: view.target }) }));
    var list = C.el("div", { class: "mu-bars" });
    view.sides.forEach(function (s, i) {
      var pts = view.totals[s.label] || 0;
      var pct = Math.max(0, Math.min(100, pts / view.target * 100));
      var fill = C.el("span", { class: "fill" });
      fill.style.width = pct + "%";
      fill.style.background = sideColour(i);
      var won = (view.winners || []).indexOf(s.label) >= 0;
      list.appendChild(C.el("div", { class: "mu-bar" + (won ? " won" : ""), dataset: { side: s.label } },
        C.el("span", { class: "who", text: s.label }),
        C.el("b", { class: "pts", text: String(pts) }),
        C.el("span", { class: "track" }, fill)));
    });
    card.appendChild(list);
    box.appendChild(card);
  }

  function drawChart(box, view) {
    var card = C.el("section", { class: "card", id: "mu-chart-card" });
    card.appendChild(C.el("h2", { text: t("mu.chart") }));
    var hands = view.hands || [];
    if (!hands.length) {
      card.appendChild(C.el("p", { class: "hint", text: t("mu.chart_empty") }));
      box.appendChild(card);
      return;
    }
    var drawn = C.lineChart({ id: "mu-chart", cls: "mu-chart", label: t("mu.chart"), legendClass: "mu-legend",
      dataKey: "data-side", xMax: hands.length, target: view.target,
      series: view.sides.map(function (s, si) {
        return { name: s.label, colour: sideColour(si), points: hands.map(function (h) { return h.totals[s.label] || 0; }) };
      }) });
    card.appendChild(drawn[0]);
    card.appendChild(drawn[1]);
    box.appendChild(card);
  }

  function drawHands(box, view, state, canEdit, redraw) {
    var card = C.el("section", { class: "card", id: "mu-hands" });
    card.appendChild(C.el("h2", { text: t("mu.table") }));
    var hands = view.hands || [];
    if (!hands.length) {
      card.appendChild(C.el("p", { class: "hint", text: t("mu.table_empty") }));
      box.appendChild(card);
      return;
    }
    var table = C.el("table", { class: "mu-table", id: "mu-score-table" });
    var head = C.el("tr", {}, C.el("th", { text: "#" }));
    view.sides.forEach(function (s) { head.appendChild(C.el("th", { text: s.label })); });
    table.appendChild(C.el("thead", {}, head));
    var body = C.el("tbody");
    hands.forEach(function (h) {
      var row = C.el("tr", { dataset: { hand: String(h.number) } }, C.el("th", { text: String(h.number) }));
      view.sides.forEach(function (s) {
        var side = h.sides.filter(function (x) { return x.label === s.label; })[0] || { points: 0 };
        row.appendChild(C.el("td", { class: (side.won ? "won" : "") + (side.points < 0 ? " neg" : "") },
          C.el("span", { class: "delta", text: (side.points > 0 ? "+" : "") + side.points }),
          C.el("span", { class: "run", text: String(h.totals[s.label]) })));
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    card.appendChild(table);

    hands.slice().reverse().forEach(function (h) {
      var details = C.el("details", { class: "mu-reasons", dataset: { hand: String(h.number) } });
      if (h.number === hands.length) details.open = true;
      var win = h.winners.length ? h.winners.join(", ") + " " + t("mu.winner") : t("mu.nobody");
      details.appendChild(C.el("summary", {},
        C.el("strong", { text: t("mu.hand_n", { n: h.number }) }),
        C.el("span", { class: "sub", text: " · " + t("mu.ended." + h.ended_by) + " · " + win })));
      h.sides.forEach(function (s) {
        var list = C.el("ul", { class: "mu-lines" });
        s.lines.forEach(function (line) {
          list.appendChild(C.el("li", {},
            C.el("b", { class: line.points < 0 ? "neg" : "", text: (line.points > 0 ? "+" : "") + line.points }),
            C.el("span", { text: W.line(line) })));
        });
        if (!s.lines.length) list.appendChild(C.el("li", { class: "hint", text: t("mu.nothing") }));
        details.appendChild(C.el("div", { class: "mu-side" + (s.won ? " won" : ""), dataset: { side: s.label } },
          C.el("div", { class: "mu-side-head" }, C.el("strong", { text: s.label }),
            C.el("b", { text: t("mu.pts", { n: s.points }) })), list));
      });
      if (canEdit && !view.over) {
        details.appendChild(C.el("button", { type: "button", class: "btn btn-ghost mu-correct", dataset: { correct: String(h.number) },
          onclick: function () { state.draft = draftFromHand(view, h); redraw(); scrollToEntry(); } }, t("mu.correct")));
      }
      card.appendChild(details);
    });
    box.appendChild(card);
  }

  function scrollToEntry() {
    var el = document.getElementById("mu-entry");
    if (el && el.scrollIntoView) el.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function drawReference(box, view) {
    var card = C.el("section", { class: "card", id: "mu-reference" });
    var details = C.el("details", { class: "mu-fold" }, C.el("summary", {}, C.el("h2", { text: t("mu.reference") })));
    (view.reference || []).forEach(function (r) {
      var notes = C.el("ul", { class: "mu-notes" });
      var words = C.words.murdero.reference(r);
      words.notes.forEach(function (n) { notes.appendChild(C.el("li", { text: n })); });
      details.appendChild(C.el("article", { class: "mu-ref", dataset: { card: r.id } },
        C.el("div", { class: "mu-ref-head" }, C.el("strong", { text: r.title }),
          C.el("span", { class: "badge mu-kind-" + r.kind, text: t("mu.kind." + r.kind) }),
          r.alibi_for ? C.el("span", { class: "badge mu-" + r.alibi_for, text: t("mu.alibi_for", { colour: t("colour." + r.alibi_for) }) }) : null),
        C.el("p", { text: words.does }), notes));
    });
    card.appendChild(details);
    box.appendChild(card);
  }

  function drawEarlier(box, view) {
    if (!(view.earlier_games || []).length) return;
    var card = C.el("section", { class: "card", id: "mu-earlier" }, C.el("h2", { text: t("mu.earlier") }));
    var list = C.el("ol", { class: "mu-earlier" });
    view.earlier_games.forEach(function (g) {
      list.appendChild(C.el("li", { text: Object.keys(g.totals).map(function (k) { return k + " " + g.totals[k]; }).join(" · ") +
        (g.winners.length ? " — ★ " + g.winners.join(", ") : "") }));
    });
    card.appendChild(list);
    box.appendChild(card);
  }

  function playerName(snap, i) {
    var p = (snap.players || [])[i] || ((snap.view || {}).players || [])[i];
    return p ? p.name : "?";
  }

  var renderer = {
    title: "Murdero",
    wordDetails: W.details,

    render: function (root, snap, ui) {
      ensureStyle();
      var view = snap.view || {};
      if (!view.players) return;
      W.remember(view);
      var state = root._murdero;
      if (!state || !root.contains(state.box)) {
        C.clear(root);
        state = root._murdero = { box: C.el("div", { class: "mu-page" }), draft: null };
        root.appendChild(state.box);
      }
      var canEdit = !!(ui && ui.canEdit);
      // a live update with nothing new is not drawn again: a tap landing while the page is
      // rebuilt would be lost
      var same = typeof snap.version === "number" && state.drawn === snap.version && state.drawnFor === ui;
      if (same && !state.force) return;
      state.drawn = snap.version;
      state.drawnFor = ui;
      state.force = false;
      state.rerender = function () { state.force = true; renderer.render(root, snap, ui); };
      var key = JSON.stringify(view.players.map(function (p) { return p.name; }));
      if (!state.draft || state.draft.key !== key) state.draft = emptyDraft(view);
      if (state.draft.correcting && state.draft.correcting > (view.hands || []).length) state.draft = emptyDraft(view);
      function redraw() {
        setSideColours(snap, view);
        C.clear(state.box);
        drawTotals(state.box, snap, view);
        if (canEdit && !view.over) drawEntry(state.box, view, state, redraw);
        drawHands(state.box, view, state, canEdit, redraw);
        drawChart(state.box, view);
        drawReference(state.box, view);
        drawEarlier(state.box, view);
      }
      // keep the open folds open across live updates
      var open = {};
      Array.prototype.forEach.call(state.box.querySelectorAll("details"), function (d, i) {
        open[(d.dataset.hand || "") + ":" + (d.className) + ":" + i] = d.open;
      });
      redraw();
      Array.prototype.forEach.call(state.box.querySelectorAll("details"), function (d, i) {
        var k = (d.dataset.hand || "") + ":" + (d.className) + ":" + i;
        if (open[k] !== undefined) d.open = open[k];
      });
    },

    banner: function (snap) {
      var view = snap.view || {};
      if (view.over) {
        var names = view.winners || [];
        var seat = view.winner;
        return { text: names.length === 1 ? t("mu.won", { name: names[0] }) : t("mu.won_many", { names: names.join(", ") }),
          sub: t("mu.hand_n", { n: (view.hands || []).length }) + " · " + t("mu.to", { n: view.target }), tone: "win",
          colour: typeof seat === "number" ? C.ledColour(((snap.players || [])[seat] || {}).colour, seat) : null };
      }
      var turn = view.turn;
      return { text: t("mu.turn", { name: playerName(snap, turn) }),
        sub: t("mu.hand_n", { n: (view.hands || []).length + 1 }) + " · " + t("mu.to", { n: view.target }),
        tone: "turn", colour: C.ledColour(((snap.players || [])[turn] || {}).colour, turn) };
    },

    badges: function (snap, index) {
      var view = snap.view || {};
      var p = (view.players || [])[index];
      if (!p) return [];
      var out = [{ text: t("mu.pts", { n: p.total }), tone: "info" }];
      if ((view.winner_seats || []).indexOf(index) >= 0) out.push({ text: "★ " + t("mu.winner_badge"), tone: "win" });
      return out;
    },

    onTurn: function (snap, index) {
      var view = snap.view || {};
      return !view.over && view.turn === index;
    },

    controls: function (snap) {
      var view = snap.view || {};
      if (view.over) return [];
      return [{ id: "next-player", label: t("mu.next") + " ▸", tone: "primary",
        action: { action: "event", event: { type: "next_turn" } } }];
    },

    players: { min: 2, max: 4 },

    /* Partner Murdero (four players, 1st+3rd against 2nd+4th) and who plays first. */
    setupFields: function (box, ctx) {
      var first = C.el("select", { id: "mu-first" });
      var pairs = C.el("input", { type: "checkbox", id: "mu-pairs" });
      var pairsRow = C.el("label", { class: "switch", for: "mu-pairs" }, pairs, C.el("span", { text: t("mu.pairs") }));
      function refresh() {
        var keep = first.value;
        var names = ctx.names();
        C.clear(first);
        names.forEach(function (name, i) {
          first.appendChild(C.el("option", { value: String(i), text: name || C.t("control.player_n", { n: i + 1 }) }));
        });
        if (keep && Number(keep) < first.options.length) first.value = keep;
        pairs.disabled = names.length !== 4;
        if (pairs.disabled) pairs.checked = false;
      }
      ctx.changed = refresh;
      refresh();
      box.appendChild(C.el("label", { for: "mu-first", text: C.t("control.first") }));
      box.appendChild(first);
      box.appendChild(pairsRow);
    },

    readSetup: function (box, names) {
      var first = box.querySelector("#mu-first");
      var pairs = box.querySelector("#mu-pairs");
      return { players: names, first: Number(first && first.value || 0), pairs: !!(pairs && pairs.checked && names.length === 4) };
    },

    describe: function (event) {
      if (!event) return C.t("history.start");
      if (event.type === "hand_corrected") return t("mu.event.hand_corrected", { n: event.number });
      return t("mu.event." + event.type);
    }
  };
  C.games.murdero = renderer;
})();
