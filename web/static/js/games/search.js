/* Search (Sackson): the haunted house as SVG (rooms, dots, corridors, triangles), the players'
   rooms and paths in their LED colours, the rooms open to the player on turn, the start draw
   tapped as two cards, the score tracks and the team score, the solver's hint and, at the end,
   the score reached against the best game the solver finds.
   Reads the game's own view JSON (companion/games/search/rules.py: view) and sends game events
   through the generic {"action": "event"} action; hint and review come from /api/analysis. */
(function () {
  "use strict";
  var C = window.Companion;
  var CELL = 40, LEFT = 30, TOP = 30, PAD = 6, EDGE = 16;  // EDGE: the row and column names

  /* Labels in the page's language (de/en); {name} placeholders. */
  var LABELS = {
    de: {
      "turn.start": "{name} zieht die Startkarten",
      "turn.play": "{name} ist am Zug",
      "sub.start": "Zwei Karten: jede kann die Reihe nennen",
      "sub.play": "Zug {n} · Team {team}",
      "over.win": "Gewonnen! Team-Wertung {team}",
      "over.lose": "Verloren: Team-Wertung {team}",
      "over.sub": "Niemand kann mehr ziehen · weitester {high}, kürzester {low}",
      "cards.title": "Startkarten von {name}",
      "cards.row": "Reihe",
      "cards.col": "Spalte",
      "cards.place": "Start in {room}",
      "cards.pick": "Erst beide Karten wählen",
      "cards.either": "Dieselben Karten nennen zwei Räume: einen wählen",
      "tap.move": "Tippe einen leuchtenden Raum, um {name} zu ziehen",
      "tap.corridor": "{name} muss durch den Gang nach {room}",
      "tap.view": "Zum Ziehen mit der PIN anmelden; Tippen zeigt, warum ein Raum zu ist",
      "tracks": "Wertungsleisten",
      "team": "Team",
      "team.formula": "{high} − 5 × ({high} − {low}) = {team}",
      "hint": "Tipp",
      "hint.ask": "Tipp vom Löser",
      "hint.working": "Der Löser rechnet …",
      "hint.for": "Tipp für {name}: nach {room}",
      "hint.by.corridor": "durch den Gang",
      "hint.by.door": "durch die Tür",
      "hint.figures": "Bestes gefundenes Ergebnis von hier: {best} (höchstens {bound})",
      "hint.exact": "Bestes Ergebnis von hier: {best} (bewiesen)",
      "hint.failed": "Kein Tipp: {reason}",
      "review": "Bilanz",
      "review.working": "Der Löser sucht das beste Spiel ab diesen Startfeldern …",
      "review.reached": "Erreicht",
      "review.best": "Bestes Spiel",
      "review.bound": "höchstens {bound}",
      "review.exact": "bewiesen",
      "review.table_best": "Niemand fand ein besseres Spiel als eures.",
      "review.gap": "{n} Punkte bis zum besten gefundenen Spiel.",
      "review.line": "Bester Weg: {line}",
      "room.info": "{room}: {dots} Punkte, Gang nach {corridor}",
      "room.legal": "{room} ist offen ({by})",
      "by.corridor": "Gang",
      "by.door": "Tür",
      "event.start": "{name}: Karten {row}/{col}",
      "event.move": "{name} nach {room}",
      "event.ask_hint": "{name} bittet um einen Tipp",
      "event.undo": "Zurückgenommen",
      "event.none": "Spielbeginn",
      "lost.toast": "{names} kann nicht ziehen und setzt aus",
      "key.corridor": "Gang",
      "key.open": "offen für den Zug",
      "key.circled": "besucht, Punkte gezählt",
      "setup.seed": "Haus Nr. (leer = zufällig)",
      "setup.rule": "Punkte-Regel",
      "setup.rule.match": "nur gleiche Punktzahl (Standard)",
      "setup.rule.different": "nie gleiche Punktzahl (Hausregel)",
      "setup.start_scores": "Startraum zählt",
      "why.not_your_turn": "{name} ist am Zug",
      "why.stay": "Du stehst schon in {room}",
      "why.must_take_corridor": "Du warst noch nicht in {corridor}: erst durch den Gang dorthin",
      "why.already_visited": "In {room} warst du schon",
      "why.occupied": "In {room} steht {name}",
      "why.corridor_to_occupied": "{room} hat einen Gang nach {other}, wo {name} steht",
      "why.not_adjacent": "{room} grenzt nicht an {here}",
      "why.dots_unmatched": "{room} hat {dots} Punkte; kein Spieler steht in einem Raum mit so vielen ({current})",
      "why.same_dots": "{room} hat {dots} Punkte wie ein besetzter Raum ({current})",
      "why.game_over": "Das Spiel ist vorbei: niemand kann ziehen",
      "why.not_started": "Erst brauchen alle einen Startraum",
      "why.already_started": "Alle haben schon einen Startraum",
      "why.draw_again": "{room} ist besetzt oder per Gang mit einem besetzten Raum verbunden: zwei neue Karten ziehen",
      "why.other_room": "{room} ist besetzt oder per Gang mit einem besetzten Raum verbunden; dieselben Karten nennen auch {alt}: dort starten",
      "why.bad_card": "Diese Karte passt zu keinem Dreieck",
      "why.no_such_room": "Diesen Raum gibt es nicht",
      "why.no_such_player": "Diesen Spieler gibt es nicht",
      "why.enter_cards": "Startkarten bitte am Handy antippen",
      "why.choose_room": "Mehrere Räume offen: am Handy antippen",
      "refused": "Nicht erlaubt: {reason}"
    },
    en: {
      "turn.start": "{name} draws start cards",
      "turn.play": "{name}'s turn",
      "sub.start": "Two cards: either may name the row",
      "sub.play": "Move {n} · team {team}",
      "over.win": "Won! Team score {team}",
      "over.lose": "Lost: team score {team}",
      "over.sub": "Nobody can move · farthest {high}, shortest {low}",
      "cards.title": "{name}'s start cards",
      "cards.row": "Row",
      "cards.col": "Column",
      "cards.place": "Start in {room}",
      "cards.pick": "Pick both cards first",
      "cards.either": "The same cards name two rooms: choose one",
      "tap.move": "Tap a lit room to move {name}",
      "tap.corridor": "{name} must take the corridor to {room}",
      "tap.view": "Log in with the PIN to move; tapping shows why a room is closed",
      "tracks": "Score tracks",
      "team": "Team",
      "team.formula": "{high} − 5 × ({high} − {low}) = {team}",
      "hint": "Hint",
      "hint.ask": "Hint from the solver",
      "hint.working": "The solver is thinking …",
      "hint.for": "Hint for {name}: go to {room}",
      "hint.by.corridor": "by the corridor",
      "hint.by.door": "through the door",
      "hint.figures": "Best score found from here: {best} (at most {bound})",
      "hint.exact": "Best score from here: {best} (proved)",
      "hint.failed": "No hint: {reason}",
      "review": "How good was it",
      "review.working": "The solver looks for the best game from these start rooms …",
      "review.reached": "Reached",
      "review.best": "Best game",
      "review.bound": "at most {bound}",
      "review.exact": "proved",
      "review.table_best": "Nobody found a better game than yours.",
      "review.gap": "{n} points short of the best game found.",
      "review.line": "Best line: {line}",
      "room.info": "{room}: {dots} dots, corridor to {corridor}",
      "room.legal": "{room} is open ({by})",
      "by.corridor": "corridor",
      "by.door": "door",
      "event.start": "{name}: cards {row}/{col}",
      "event.move": "{name} to {room}",
      "event.ask_hint": "{name} asks for a hint",
      "event.undo": "Undone",
      "event.none": "Start of the game",
      "lost.toast": "{names} cannot move and loses the turn",
      "key.corridor": "corridor",
      "key.open": "open to the player on turn",
      "key.circled": "visited, dots counted",
      "setup.seed": "House no. (empty = random)",
      "setup.rule": "Dot rule",
      "setup.rule.match": "only matching dots (standard)",
      "setup.rule.different": "never matching dots (house rule)",
      "setup.start_scores": "Start room scores",
      "why.not_your_turn": "It is {name}'s turn",
      "why.stay": "You are in {room} already",
      "why.must_take_corridor": "You have not visited {corridor}: take the corridor there first",
      "why.already_visited": "You have visited {room} already",
      "why.occupied": "{name} is in {room}",
      "why.corridor_to_occupied": "{room} has a corridor to {other}, where {name} is",
      "why.not_adjacent": "{room} is not next to {here}",
      "why.dots_unmatched": "{room} has {dots} dots; no player's room has that many ({current})",
      "why.same_dots": "{room} has {dots} dots, like an occupied room ({current})",
      "why.game_over": "The game is over: nobody can move",
      "why.not_started": "Every player needs a start room first",
      "why.already_started": "Every player has a start room already",
      "why.draw_again": "{room} is occupied or joined by corridor to an occupied room: draw two cards again",
      "why.other_room": "{room} is occupied or joined by corridor to an occupied room; the same cards also name {alt}: start there",
      "why.bad_card": "That card matches no triangle",
      "why.no_such_room": "There is no such room",
      "why.no_such_player": "There is no such player",
      "why.enter_cards": "Tap the start cards on a phone",
      "why.choose_room": "Several rooms are open: tap one on a phone",
      "refused": "Not allowed: {reason}"
    }
  };
  var lang = (document.documentElement.lang || "de").slice(0, 2);
  function L(key, values) {
    var text = (LABELS[lang] || LABELS.en)[key] || LABELS.en[key] || key;
    Object.keys(values || {}).forEach(function (k) {
      text = text.split("{" + k + "}").join(String(values[k]));
    });
    return text;
  }

  C.stylesheet("search")();  // the base template only knows app.css

  var svg = C.svg;

  function colourOf(snap, i) {
    var p = (snap.players || [])[i] || {};
    return C.ledColour(p.colour, i);
  }
  function nameOf(snap, i) {
    var p = (snap.players || [])[i];
    if (p && p.name) return p.name;
    var vp = ((snap.view || {}).players || [])[i];
    return vp ? vp.name : "?";
  }
  function roomsByName(view) {
    var out = {};
    ((view.house || {}).rooms || []).forEach(function (r) { out[r.name] = r; });
    return out;
  }
  function centre(room) {
    return [LEFT + room.col * CELL + CELL / 2, TOP + room.row * CELL + CELL / 2];
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

  /* --- the house ------------------------------------------------------------------------- */
  function corridorPath(a, b) {
    var p = centre(a), q = centre(b);
    var mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
    var dx = q[0] - p[0], dy = q[1] - p[1];
    var len = Math.sqrt(dx * dx + dy * dy) || 1;
    var bow = Math.min(16, len * 0.22);
    var cx = mx - dy / len * bow, cy = my + dx / len * bow;
    return "M" + p[0] + " " + p[1] + " Q" + cx.toFixed(1) + " " + cy.toFixed(1) + " " + q[0] + " " + q[1];
  }

  function dotSpots(n) {
    if (n === 1) return [[0, 0]];
    if (n === 2) return [[-7, 5], [7, -5]];
    return [[-9, 7], [0, -6], [9, 7]];
  }

  /* Row letters on the right, column numbers below: hints and refusals name rooms (C4), so
     the house says where C4 is. The left and top edges belong to the start cards' marks. */
  function rulers(root, rows, cols) {
    var right = LEFT + cols * CELL + PAD + EDGE / 2, below = TOP + rows * CELL + PAD + EDGE / 2 + 4;
    for (var r = 0; r < rows; r++) {
      root.appendChild(svg("text", { x: right, y: TOP + r * CELL + CELL / 2 + 4, class: "sr-ruler",
        "text-anchor": "middle", text: "ABCDEFGHIJKLMNOPQRSTUVWXYZ".charAt(r) }));
    }
    for (var c = 0; c < cols; c++) {
      root.appendChild(svg("text", { x: LEFT + c * CELL + CELL / 2, y: below, class: "sr-ruler",
        "text-anchor": "middle", text: String(c + 1) }));
    }
  }

  function houseSvg(snap, opts) {
    var view = snap.view || {};
    var house = view.house || {};
    var rows = house.rows || 8, cols = house.cols || 11;
    var W = LEFT + cols * CELL + PAD + EDGE, H = TOP + rows * CELL + PAD + EDGE;
    var rooms = roomsByName(view);
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "sr-house", role: "grid",
      "aria-label": rows + "x" + cols });
    var floor = svg("g", { class: "sr-floor" });
    root.appendChild(svg("rect", { x: LEFT - 3, y: TOP - 3, width: cols * CELL + 6, height: rows * CELL + 6, rx: 8, class: "sr-sheet" }));

    // triangles: row marks on the left, column marks on top (the start cards)
    (house.row_marks || []).forEach(function (m, r) {
      if (m === null || m === undefined) return;
      var y = TOP + r * CELL + CELL / 2, on = opts.cardRow === m;
      var g = svg("g", { class: "sr-mark" + (on ? " on" : ""), "data-mark": "row-" + m });
      g.appendChild(svg("path", { d: "M3 " + (y - 11) + " L25 " + y + " L3 " + (y + 11) + " Z" }));
      g.appendChild(svg("text", { x: 11, y: y + 4.5, "text-anchor": "middle", text: String(m) }));
      root.appendChild(g);
    });
    (house.col_marks || []).forEach(function (m, c) {
      if (m === null || m === undefined) return;
      var x = LEFT + c * CELL + CELL / 2, on = opts.cardCol === m;
      var g = svg("g", { class: "sr-mark" + (on ? " on" : ""), "data-mark": "col-" + m });
      g.appendChild(svg("path", { d: "M" + (x - 11) + " 3 L" + x + " 25 L" + (x + 11) + " 3 Z" }));
      g.appendChild(svg("text", { x: x, y: 13.5, "text-anchor": "middle", text: String(m) }));
      root.appendChild(g);
    });

    rulers(root, rows, cols);

    var legal = {};
    (view.legal || []).forEach(function (m) { legal[m.room] = m.by; });
    var turnColour = typeof view.turn === "number" ? colourOf(snap, view.turn) : "#e0a93b";

    // rooms: paper, visits tinted in the visitors' colours, dots circled where visited
    (house.rooms || []).forEach(function (room) {
      var x = LEFT + room.col * CELL, y = TOP + room.row * CELL;
      var cls = "sr-room";
      if (legal[room.name]) cls += " legal";
      if ((opts.preview || []).indexOf(room.name) >= 0) cls += " preview";
      if (opts.hint === room.name) cls += " hinted";
      var g = svg("g", { class: cls, "data-room": room.name });
      g.appendChild(svg("rect", { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 5, class: "sr-paper" }));
      var visitors = room.visited_by || [];
      visitors.forEach(function (v, k) {
        var h = (CELL - 3) / visitors.length;
        g.appendChild(svg("rect", { x: x + 1.5, y: y + 1.5 + k * h, width: CELL - 3, height: h,
          fill: colourOf(snap, v), class: "sr-visit" }));
      });
      if (legal[room.name]) {
        g.appendChild(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4,
          stroke: turnColour, class: "sr-open" }));
      }
      dotSpots(room.dots).forEach(function (d) {
        g.appendChild(svg("circle", { cx: x + CELL / 2 + d[0], cy: y + CELL / 2 + d[1], r: 3.2, class: "sr-dot" }));
        if (visitors.length) {
          g.appendChild(svg("circle", { cx: x + CELL / 2 + d[0], cy: y + CELL / 2 + d[1], r: 5.6,
            stroke: colourOf(snap, visitors[0]), class: "sr-circled" }));
        }
      });
      floor.appendChild(g);
    });
    root.appendChild(floor);

    // corridors: faint curves, once per pair; the player on turn's own corridor stands out
    var corridors = svg("g", { class: "sr-corridors" });
    var mover = (view.players || [])[view.turn] || {};
    (house.rooms || []).forEach(function (room) {
      var other = rooms[room.corridor];
      if (!other || room.name > other.name) return;
      var mine = mover.room && (mover.room === room.name || mover.room === other.name) && view.phase === "play";
      corridors.appendChild(svg("path", { d: corridorPath(room, other),
        class: "sr-corridor" + (mine ? " mine" : ""), stroke: mine ? turnColour : "" }));
    });
    root.appendChild(corridors);

    // paths in the players' colours, then their current rooms as pawns
    var paths = svg("g", { class: "sr-paths" });
    (view.players || []).forEach(function (p, i) {
      var pts = (p.path || []).map(function (n) { return rooms[n]; }).filter(Boolean);
      for (var k = 1; k < pts.length; k++) {
        var a = pts[k - 1], b = pts[k];
        var byCorridor = a.corridor === b.name;
        paths.appendChild(svg("path", {
          d: byCorridor ? corridorPath(a, b) : "M" + centre(a).join(" ") + " L" + centre(b).join(" "),
          stroke: colourOf(snap, i), class: "sr-trail" + (byCorridor ? " by-corridor" : "")
        }));
      }
    });
    root.appendChild(paths);
    var pawns = svg("g", { class: "sr-pawns" });
    (view.players || []).forEach(function (p, i) {
      var room = rooms[p.room];
      if (!room) return;
      var c = centre(room);
      var onTurn = view.phase === "play" && view.turn === i;
      var g = svg("g", { class: "sr-pawn" + (onTurn ? " on-turn" : ""), "data-player": String(i) });
      g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: 12.5, fill: colourOf(snap, i) }));
      g.appendChild(svg("text", { x: c[0], y: c[1] + 4.6, "text-anchor": "middle",
        text: (p.name || "?").charAt(0).toUpperCase() }));
      pawns.appendChild(g);
    });
    root.appendChild(pawns);

    // tap targets over everything
    var hits = svg("g", { class: "sr-hits" });
    (house.rooms || []).forEach(function (room) {
      var by = legal[room.name];
      hits.appendChild(svg("rect", { x: LEFT + room.col * CELL, y: TOP + room.row * CELL, width: CELL, height: CELL,
        class: "sr-hit", "data-room": room.name, role: "gridcell",
        "aria-label": room.name + " " + room.dots + (by ? " " + L("by." + by) : "") }));
    });
    root.appendChild(hits);
    return root;
  }

  /* What the marks on the house mean, in one line under it. */
  function legend() {
    function icon(draw) {
      var s = svg("svg", { viewBox: "0 0 24 16", class: "sr-key", "aria-hidden": "true" });
      draw(s);
      return s;
    }
    return C.el("div", { class: "sr-legend" },
      C.el("span", {}, icon(function (s) { s.appendChild(svg("path", { d: "M2 12 Q12 0 22 12", class: "sr-corridor" })); }), L("key.corridor")),
      C.el("span", {}, icon(function (s) { s.appendChild(svg("rect", { x: 3, y: 1, width: 18, height: 14, rx: 3, class: "sr-key-open" })); }), L("key.open")),
      C.el("span", {}, icon(function (s) {
        s.appendChild(svg("circle", { cx: 12, cy: 8, r: 2.6, class: "sr-dot" }));
        s.appendChild(svg("circle", { cx: 12, cy: 8, r: 5, class: "sr-circled sr-key-circle" }));
      }), L("key.circled")));
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
