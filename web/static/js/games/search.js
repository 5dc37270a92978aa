/* Search (Sackson): the haunted house as SVG (rooms, dots, corridors, triangles), the players'
   rooms and paths in their LED colours, the rooms open to the player on turn, the start draw
   tapped as two cards, the score tracks and the team score, the solver's hint and, at the end,
   the score reached against the best game the solver finds.
   Reads the game's own view JSON (companion/games/search/rules.py: view) and sends game events
   through the generic {"action": "event"} action; hint and review come from /api/analysis. */
(function () {
  "use strict";
  var C = window.Companion;
  var H = C.parts.search;  // the house as SVG: web/static/js/parts/search.js
  var colourOf = H.colourOf, roomsByName = H.roomsByName, houseSvg = H.houseSvg, legend = H.legend;

  /* Labels in the page's language (de/en); {name} placeholders. */
  var LABELS = C.words.search.LABELS;  // web/static/js/words/search.js
  var L = C.words.search.L;

  C.stylesheet("search")();  // the base template only knows app.css

  var svg = C.svg;

  function nameOf(snap, i) {
    var p = (snap.players || [])[i];
    if (p && p.name) return p.name;
    var vp = ((snap.view || {}).players || [])[i];
    return vp ? vp.name : "?";
  }
  function moveCount(view) {
    return (view.players || []).reduce(function (n, p) { return n + Math.max(0, (p.path || []).length - 1); }, 0);
  }
  function isLive() { return !document.getElementById("history"); }

  /* The refusal in the page's language, from the engine's code and details. */
  function why(code, details, fallback, snap) {
    var view = snap.view || {};
    var rooms = roomsByName(view);
    details = details || {};
    var room = details.room ? rooms[details.room] : null;
    var turn = typeof details.turn === "number" ? details.turn : view.turn;
    var mover = (view.players || [])[view.turn] || {};
    var current = [];
    (view.players || []).forEach(function (p) {
      if (p.room && rooms[p.room] && current.indexOf(rooms[p.room].dots) < 0) current.push(rooms[p.room].dots);
    });
    current.sort();
    var values = {
      room: details.room || "", corridor: details.corridor || "", alt: details.alt || "",
      name: nameOf(snap, typeof details.by === "number" ? details.by : turn),
      other: room ? room.corridor : "", here: mover.room || "",
      dots: room ? room.dots : "", current: current.join(", ")
    };
    var key = "why." + code;
    if (!(LABELS.en[key])) return fallback || code;
    return L(key, values);
  }

  var state = {
    cards: { row: null, col: null },  // the start draw being tapped
    cardsFor: null,                   // (player, moves) the picked cards belong to
    message: null,                    // {text, tone, key}: the last refusal or room info
    hint: null,                       // {key, status, data|reason}
    review: null,                     // {key, status, data|reason}
    snap: null,
    root: null,
    ui: null
  };

  function positionKey(view) {
    return (view.players || []).map(function (p) { return (p.path || []).join(","); }).join(";") + "|" + view.turn;
  }

  function send(event) {
    return C.sendEvent(event).then(function (s) {
      state.message = null;
      return s;
    }, function (err) {
      var body = (err && err.body) || {};
      if (body.code || body.reason) {
        var text = why(body.code, body.details, body.reason, state.snap);
        state.message = { text: text, tone: "warn", code: body.code || null };
        if (body.code === "draw_again" || body.code === "bad_card") state.cards = { row: null, col: null };
        C.toast(L("refused", { reason: text }), "warn");
        if (state.root && state.snap) draw(state.root, state.snap, state.ui);
      }
      throw err;
    });
  }

  /* --- analysis (hint, review): polled until the worker has it --------------------------- */
  function analyse(kind, key, slot) {
    var tries = 0;
    function ask() {
      C.getJSON("/api/analysis/" + kind).then(function (body) {
        if (!state[slot] || state[slot].key !== key) return;
        if (body.status === "working") {
          if (++tries < 600) setTimeout(ask, 1000);
          return;
        }
        state[slot] = { key: key, status: "done", data: body };
        if (state.root && state.snap) draw(state.root, state.snap, state.ui);
      }, function (err) {
        if (!state[slot] || state[slot].key !== key) return;
        state[slot] = { key: key, status: "failed", reason: err.message };
        if (state.root && state.snap) draw(state.root, state.snap, state.ui);
      });
    }
    state[slot] = { key: key, status: "working" };
    ask();
  }

  /* --- the parts below the house --------------------------------------------------------- */
  function tracks(snap) {
    var view = snap.view || {};
    var players = view.players || [];
    var high = Math.max.apply(null, players.map(function (p) { return p.track; }).concat([1]));
    var scale = Math.max(20, Math.ceil((high + 4) / 10) * 10);
    var box = C.el("section", { class: "sr-tracks card", id: "sr-tracks" },
      C.el("h2", { text: L("tracks") }));
    players.forEach(function (p, i) {
      var bar = C.el("span", { class: "sr-bar" });
      var fill = C.el("span", { class: "sr-fill" });
      fill.style.width = (100 * p.track / scale).toFixed(1) + "%";
      fill.style.background = colourOf(snap, i);
      bar.appendChild(fill);
      var onTurn = view.phase === "play" && view.turn === i;
      box.appendChild(C.el("div", { class: "sr-track" + (onTurn ? " on-turn" : ""), dataset: { player: i } },
        C.el("span", { class: "sr-who", text: nameOf(snap, i) }), bar,
        C.el("b", { class: "sr-num", text: String(p.track) })));
    });
    var s = view.score;
    if (s) {
      box.appendChild(C.el("div", { class: "sr-team " + (s.win ? "win" : "lose"), id: "sr-team" },
        C.el("span", { text: L("team") }),
        C.el("small", { text: L("team.formula", { high: s.high, low: s.low, team: s.team }) }),
        C.el("b", { text: String(s.team) })));
    }
    return box;
  }

  function cardPicker(snap) {
    var view = snap.view || {};
    var name = nameOf(snap, view.turn);
    var rooms = view.house.rooms;
    var box = C.el("section", { class: "sr-cards card", id: "sr-cards" },
      C.el("h2", { text: L("cards.title", { name: name }) }));
    [["row", "cards.row"], ["col", "cards.col"]].forEach(function (kind) {
      var line = C.el("div", { class: "sr-card-row" }, C.el("span", { class: "sr-card-label", text: L(kind[1]) }));
      for (var n = 1; n <= 6; n++) {
        (function (n) {
          line.appendChild(C.el("button", {
            type: "button", class: "sr-card" + (state.cards[kind[0]] === n ? " on" : ""),
            dataset: { card: kind[0] + "-" + n }, disabled: !C.loggedIn,
            onclick: function () {
              state.cards[kind[0]] = state.cards[kind[0]] === n ? null : n;
              state.message = null;
              draw(state.root, state.snap, state.ui);
            }
          }, String(n)));
        })(n);
      }
      box.appendChild(line);
    });
    /* "one of the rooms where the row and columns … correspond to the cards drawn": either
       card may name the row, so two different cards offer two rooms and the player chooses */
    var choices = previewRooms(view);
    if (choices.length > 1) box.appendChild(C.el("p", { class: "sr-either", text: L("cards.either") }));
    (choices.length ? choices : [null]).forEach(function (choice, i) {
      box.appendChild(C.el("button", {
        type: "button", class: "btn" + (i ? "" : " btn-primary") + " sr-place",
        id: i ? "sr-place-other" : "sr-place", disabled: !C.loggedIn || !choice,
        dataset: choice ? { room: choice.room } : {},
        onclick: function () {
          send({ type: "start", player: view.turn, row_card: choice.row, col_card: choice.col })
            .then(function () { state.cards = { row: null, col: null }; }, function () {});
        }
      }, choice ? L("cards.place", { room: choice.room }) : L("cards.pick")));
    });
    void rooms;
    return box;
  }

  /* The rooms the two picked cards name: the row card's row first, then the other way round. */
  function previewRooms(view) {
    var h = view.house || {};
    var a = state.cards.row, b = state.cards.col, out = [];
    if (a === null || b === null) return out;
    [[a, b], [b, a]].forEach(function (rc) {
      var r = (h.row_marks || []).indexOf(rc[0]), c = (h.col_marks || []).indexOf(rc[1]);
      var room = r < 0 || c < 0 ? null : String.fromCharCode(65 + r) + (c + 1);
      if (room && !out.some(function (o) { return o.room === room; })) out.push({ room: room, row: rc[0], col: rc[1] });
    });
    return out;
  }

  function hintCard(snap) {
    var view = snap.view || {};
    var h = state.hint;
    if (!h || h.key !== positionKey(view) || view.phase !== "play") return null;
    var box = C.el("section", { class: "sr-hint card", id: "sr-hint", "aria-live": "polite" });
    if (h.status === "working") {
      box.appendChild(C.el("p", { class: "sr-working", text: L("hint.working") }));
    } else if (h.status === "failed") {
      box.appendChild(C.el("p", { text: L("hint.failed", { reason: h.reason }) }));
    } else {
      var d = h.data;
      box.style.setProperty("--seat", colourOf(snap, d.player));
      box.appendChild(C.el("strong", { text: L("hint.for", { name: nameOf(snap, d.player), room: d.room }) +
        " · " + L("hint.by." + d.by) }));
      box.appendChild(C.el("p", { class: "hint", text: d.exact ? L("hint.exact", { best: d.best })
        : L("hint.figures", { best: d.best, bound: d.bound }) }));
    }
    return box;
  }

  function reviewCard(snap) {
    var view = snap.view || {};
    var key = positionKey(view);
    if (!state.review || state.review.key !== key) analyse("review", key, "review");
    var r = state.review;
    var box = C.el("section", { class: "sr-review card", id: "sr-review" }, C.el("h2", { text: L("review") }));
    if (r.status === "working") {
      box.appendChild(C.el("p", { class: "sr-working", text: L("review.working") }));
      return box;
    }
    if (r.status === "failed") {
      box.appendChild(C.el("p", { class: "hint", text: r.reason }));
      return box;
    }
    var d = r.data;
    box.appendChild(C.el("div", { class: "sr-versus" },
      C.el("div", { class: "sr-fig", id: "sr-reached" }, C.el("small", { text: L("review.reached") }), C.el("b", { text: String(d.reached) })),
      C.el("div", { class: "sr-fig best", id: "sr-best" }, C.el("small", { text: L("review.best") }), C.el("b", { text: String(d.best) }),
        C.el("small", { text: d.exact ? L("review.exact") : L("review.bound", { bound: d.bound }) }))));
    box.appendChild(C.el("p", { class: "hint", text: d.table_best ? L("review.table_best") : L("review.gap", { n: d.best - d.reached }) }));
    if (d.line && d.line.length) {
      box.appendChild(C.el("p", { class: "sr-line", text: L("review.line", { line: d.line.join(" · ") }) }));
    }
    return box;
  }

  function message(snap) {
    var view = snap.view || {};
    var m = state.message;
    if (m) return C.el("p", { class: "sr-msg tone-" + m.tone, id: "sr-reason", role: "status", dataset: { code: m.code || "" } }, m.text);
    if (view.phase !== "play" || !isLive()) return null;  // a replay needs no instructions
    var name = nameOf(snap, view.turn);
    var legal = view.legal || [];
    var text = !(state.ui && state.ui.canEdit) ? L("tap.view")
      : legal.length === 1 && legal[0].by === "corridor" ? L("tap.corridor", { name: name, room: legal[0].room })
      : L("tap.move", { name: name });
    return C.el("p", { class: "sr-msg", id: "sr-reason", role: "status" }, text);
  }

  function onRoomTap(name) {
    var snap = state.snap, view = (snap || {}).view || {};
    if (!snap) return;
    var room = roomsByName(view)[name];
    if (!room) return;
    if (view.phase === "start") {
      state.message = { text: L("room.info", { room: name, dots: room.dots, corridor: room.corridor }), tone: "info" };
      draw(state.root, snap, state.ui);
      return;
    }
    var canMove = state.ui && state.ui.canEdit && C.loggedIn && view.phase === "play";
    if (canMove) {
      send({ type: "move", player: view.turn, room: name }).catch(function () {});
      return;
    }
    var refusal = (view.refusals || {})[name];
    var legal = (view.legal || []).filter(function (m) { return m.room === name; })[0];
    var text = refusal ? why(refusal.code, { room: name, corridor: (roomsByName(view)[((view.players || [])[view.turn] || {}).room] || {}).corridor }, refusal.reason, snap)
      : legal ? L("room.legal", { room: name, by: L("by." + legal.by) })
      : L("room.info", { room: name, dots: room.dots, corridor: room.corridor });
    state.message = { text: text, tone: refusal ? "warn" : "info", code: refusal ? refusal.code : null };
    draw(state.root, snap, state.ui);
  }

  function draw(root, snap, ui) {
    var view = snap.view || {};
    var key = positionKey(view);
    if (state.cardsFor !== key) {  // a new position: the picked cards and the last reason go
      if (state.cardsFor !== null) state.message = null;
      state.cards = { row: null, col: null };
      state.cardsFor = key;
    }
    if (view.phase === "play" && isLive() && typeof view.hint_asked === "number" &&
        (!state.hint || state.hint.key !== key)) {
      analyse("hint", key, "hint");
    }
    var hinted = state.hint && state.hint.key === key && state.hint.status === "done" ? state.hint.data.room : null;
    C.clear(root);
    var wrap = C.el("div", { class: "sr-wrap" });
    var house = houseSvg(snap, { cardRow: view.phase === "start" ? state.cards.row : null,
      cardCol: view.phase === "start" ? state.cards.col : null,
      preview: view.phase === "start" ? previewRooms(view).map(function (p) { return p.room; }) : null, hint: hinted });
    house.addEventListener("click", function (e) {
      var t = e.target.closest ? e.target.closest("[data-room]") : null;
      if (t) onRoomTap(t.getAttribute("data-room"));
    });
    wrap.appendChild(house);
    wrap.appendChild(legend());
    root.appendChild(wrap);
    var msg = message(snap);
    if (msg) root.appendChild(msg);
    if (view.phase === "start" && isLive()) root.appendChild(cardPicker(snap));
    var hint = hintCard(snap);
    if (hint) root.appendChild(hint);
    if (view.phase === "over" && isLive()) root.appendChild(reviewCard(snap));
    root.appendChild(tracks(snap));
  }

  /* Say once per change what the house did by itself: a player skipped because they cannot move. */
  var announced = -1;
  function announce(snap) {
    if (!isLive() || typeof snap.version !== "number" || snap.version <= announced) return;
    var first = announced < 0;
    announced = snap.version;
    var last = snap.last;
    if (first || !last || last.kind !== "effects") return;
    var lost = (last.effects || []).filter(function (e) { return e.kind === "turn_lost"; })
      .map(function (e) { return nameOf(snap, e.data.player); });
    if (lost.length) C.toast(L("lost.toast", { names: lost.join(", ") }), "info");
  }

  var renderer = {
    title: "Search",

    render: function (root, snap, ui) {
      announce(snap);
      state.root = root;
      state.snap = snap;
      state.ui = ui || { canEdit: false };
      draw(root, snap, state.ui);
    },

    banner: function (snap) {
      var view = snap.view || {};
      var s = view.score;
      if (view.phase === "over") {
        return { text: L(s && s.win ? "over.win" : "over.lose", { team: s ? s.team : 0 }),
          sub: s ? L("over.sub", { high: s.high, low: s.low }) : "", tone: s && s.win ? "win" : "over" };
      }
      var name = nameOf(snap, view.turn);
      if (view.phase === "start") {
        return { text: L("turn.start", { name: name }), sub: L("sub.start"), tone: "turn", colour: colourOf(snap, view.turn) };
      }
      return { text: L("turn.play", { name: name }), sub: L("sub.play", { n: moveCount(view) + 1, team: s ? s.team : 0 }),
        tone: "turn", colour: colourOf(snap, view.turn) };
    },

    badges: function (snap, index) {
      var p = ((snap.view || {}).players || [])[index];
      return p ? [{ text: String(p.track), tone: "info" }] : [];
    },

    onTurn: function (snap, index) {
      var view = snap.view || {};
      return view.phase !== "over" && view.turn === index;
    },

    controls: function (snap) {
      var view = snap.view || {};
      if (view.phase !== "play") return [];
      return [{ id: "hint", label: L("hint.ask"), tone: "primary",
        disabled: typeof view.hint_asked === "number",  // asked already: the hint is on screen
        action: { action: "event", event: { type: "ask_hint", player: view.turn } } }];
    },

    describe: function (event) {
      var snap = state.snap || { players: [] };
      if (!event) return L("event.none");
      var name = typeof event.player === "number" ? nameOf(snap, event.player) : "";
      switch (event.type) {
        case "start": return L("event.start", { name: name, row: event.row_card, col: event.col_card });
        case "move": return L("event.move", { name: name, room: event.room });
        case "ask_hint": return L("event.ask_hint", { name: name });
        case "undo": return L("event.undo");
        default: return event.type;
      }
    },

    players: { min: 2, max: 4 },

    /* New-game form: the house number, the dot rule and whether the start room scores. */
    setupFields: function (form) {
      var box = C.el("div", { class: "sr-setup", id: "sr-setup" },
        C.el("label", { for: "sr-seed", text: L("setup.seed") }),
        C.el("input", { id: "sr-seed", type: "number", min: "0", step: "1", inputmode: "numeric" }),
        C.el("label", { for: "sr-rule", text: L("setup.rule") }),
        C.el("select", { id: "sr-rule" },
          C.el("option", { value: "match", text: L("setup.rule.match") }),
          C.el("option", { value: "different", text: L("setup.rule.different") })),
        C.el("label", { class: "switch" }, C.el("input", { id: "sr-start-scores", type: "checkbox", checked: true }),
          C.el("span", { text: L("setup.start_scores") })));
      if (form) form.appendChild(box);
      return box;
    },
    readSetup: function (form, players) {
      var scope = form || document;
      var seed = scope.querySelector("#sr-seed");
      var value = seed && seed.value !== "" ? Number(seed.value) : Math.floor(Math.random() * 1e6);
      var rule = scope.querySelector("#sr-rule");
      var scores = scope.querySelector("#sr-start-scores");
      var setup = { seed: value, dot_rule: rule ? rule.value : "match", start_scores: scores ? scores.checked : true };
      if (players) setup.players = players;
      return setup;
    },

    labels: LABELS
  };
  C.games.search = renderer;
})();
