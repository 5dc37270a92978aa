/* Search's house as SVG: rooms with their dots, corridors, the start cards' triangles, row and
   column names, the players' paths and pawns in their LED colours, and a tap target per room.
   A part of the Search page (web/static/js/games/search.js), loaded before it. */
(function () {
  "use strict";
  var C = window.Companion;
  var svg = C.svg;
  var L = C.words.search.L;
  var CELL = 40, LEFT = 30, TOP = 30, PAD = 6, EDGE = 16;  // EDGE: the row and column names

  function colourOf(snap, i) {
    var p = (snap.players || [])[i] || {};
    return C.ledColour(p.colour, i);
  }
  function roomsByName(view) {
    var out = {};
    ((view.house || {}).rooms || []).forEach(function (r) { out[r.name] = r; });
    return out;
  }
  function centre(room) {
    return [LEFT + room.col * CELL + CELL / 2, TOP + room.row * CELL + CELL / 2];
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

  C.parts = C.parts || {};
  C.parts.search = { colourOf: colourOf, roomsByName: roomsByName, houseSvg: houseSvg, legend: legend };
})();
