/* Murdero's words: the page's labels in English and German, and how the rules' codes become
   sentences (a refusal's details, each score line). The rules send a stable code and details
   beside their English reason; the page words them here, so a German phone reads German.
   English labels repeat the rules' own sentences; a code without a label shows the reason. */
(function () {
  "use strict";
  var C = window.Companion;
  var t = C.t;
  var LABELS = {
    en: {
      "mu.turn": "{name}'s turn", "mu.hand_n": "Hand {n}", "mu.to": "first to {n}",
      "mu.won": "{name} wins the game", "mu.won_many": "Shared win: {names}",
      "mu.totals": "Scores", "mu.chart": "Scores over the hands", "mu.chart_empty": "The chart fills in after the first hand.",
      "mu.table": "Hands", "mu.table_empty": "No hand scored yet.", "mu.hand": "Hand", "mu.total": "Total",
      "mu.ended.case": "a case completed", "mu.ended.removal": "an alibi / Heavy Caseload removed",
      "mu.ended.reverse_charges": "Reverse Charges", "mu.ended.overtime": "Overtime (Case File empty)",
      "mu.winner": "won the hand", "mu.nobody": "nobody won",
      "mu.entry": "Enter the hand's end", "mu.entry_correct": "Correct hand {n}",
      "mu.entry_hint": "For each player: tap the cards of each case, the permanents in play and the cards left in hand.",
      "mu.add_case": "+ {colour} case", "mu.case": "{colour} case", "mu.remove_case": "Remove case",
      "mu.cards_hint": "tap a number to add the card; tap a card to take it off",
      "mu.joker": "Joker as", "mu.joker_none": "no Joker",
      "mu.permanents": "Permanent action cards in play", "mu.held": "Cards left in hand",
      "mu.held_actions": "action cards", "mu.none_held": "none",
      "mu.ended_by": "How the hand ended", "mu.score": "Score the hand", "mu.save": "Save correction",
      "mu.clear": "Clear", "mu.cancel": "Cancel", "mu.correct": "Correct",
      "mu.refused": "Not accepted: {reason}", "mu.scored": "Hand {n} scored",
      "mu.reference": "Action cards", "mu.kind.one_shot": "one-shot", "mu.kind.permanent": "permanent",
      "mu.alibi_for": "alibi for {colour}", "mu.earlier": "Earlier games",
      "mu.pairs": "Partner Murdero (pairs: 1st+3rd v 2nd+4th, to 200)", "mu.winner_badge": "winner", "mu.next": "Next player", "mu.nothing": "no cards in play or in hand", "mu.pts": "{n} pts",
      "colour.red": "Red", "colour.blue": "Blue", "colour.green": "Green",
      "mu.event.hand_entered": "hand entered", "mu.event.hand_corrected": "hand {n} corrected",
      "mu.event.next_turn": "next player", "mu.event.new_game": "new game", "mu.event.undo": "undo",
      "mu.word.red": "red", "mu.word.blue": "blue", "mu.word.green": "green",
      "mu.line.case": "{colour} case {cards}{joker}{complete}", "mu.line.joker": " (Joker as {n}, 0)",
      "mu.line.complete": ", complete", "mu.line.real_estate": "Real Estate: {scenes} Crime Scene(s) worth {worth} each, not 1",
      "mu.line.won_doubled": "won the hand: case points doubled ({points} x 2 = {doubled})",
      "mu.line.left_in_hand": "left in hand: {cards}", "mu.held_case": "{token}", "mu.held_action": "{token}", "mu.times": "x{n}",
      "mu.how.case": "with a case", "mu.how.removal": "by a removal",
      "mu.why.none_complete": "no case holds every number 1-5",
      "mu.why.heavy_caseload": "Heavy Caseload is in play, so a player needs two completed cases",
      "mu.why.alibi": "every completed case is of a colour whose alibi is in play",
      "mu.no_one": "no one", "mu.no_winner": "no winner",
      "refused.murdero.wrong_players": "the hand lists {listed}; this game's players are {players}",
      "refused.murdero.game_over": "the game is over ({winners} won); start a new game",
      "refused.murdero.unknown_event": "Murdero has no event {event}",
      "refused.murdero.no_such_hand": "there is no hand {number}; {played} played",
      "refused.murdero.correction_ends_game_early": "with this correction the game ends after hand {ends_after}, but {played} hands were played; undo the later hands first",
      "refused.murdero.hand_invalid.nothing_to_sabotage": "the {colour} case has no {number} to sabotage",
      "refused.murdero.hand_invalid.pairs_need_four": "Partner Murdero is for four players in pairs, not {count}",
      "refused.murdero.hand_invalid.player_count": "Murdero is for 2-4 players, this hand has {count}",
      "refused.murdero.hand_invalid.name_missing": "every player needs a name",
      "refused.murdero.hand_invalid.names_repeat": "player names must differ: {names} appears twice",
      "refused.murdero.hand_invalid.too_many_cases": "{player} has {count} cases; at most {limit} at once",
      "refused.murdero.hand_invalid.colour_twice": "{player} has {count} {colour} cases; each case must be a different colour",
      "refused.murdero.hand_invalid.not_a_case_number": "{player}'s {colour} case: {number} is not a case card number (1-5)",
      "refused.murdero.hand_invalid.empty_case": "{player}'s {colour} case is empty; leave it out",
      "refused.murdero.hand_invalid.no_crime_scene": "{player}'s {colour} case does not begin with a Crime Scene (1); every case must",
      "refused.murdero.hand_invalid.joker_number": "{player}'s {colour} case: the Joker can stand in for a 2-5 only (a case begins with a real Crime Scene)",
      "refused.murdero.hand_invalid.joker_doubles": "{player}'s {colour} case: the Joker stands in for a {number} the case already has",
      "refused.murdero.hand_invalid.case_gaps": "{player}'s {colour} case skips {gaps}: cases are built in number sequence 1,2,3,4,5",
      "refused.murdero.hand_invalid.one_shot_in_play": "{player}: {card} is One Shot; it never stays in play",
      "refused.murdero.hand_invalid.joker_off_case": "{player}: put the Joker on the case it stands in for (\"joker\": number)",
      "refused.murdero.hand_invalid.too_many_permanents": "{player} has {count} Permanent Action Cards in play but {cases} case(s); only one Permanent per case being built",
      "refused.murdero.hand_invalid.no_winning_case": "the hand ended {how}, but no one has a winning case: {why}",
      "refused.murdero.hand_invalid.several_winners": "{players} all have winning cases; several players win only when an alibi or Heavy Caseload is removed (ended_by \"removal\")",
      "refused.murdero.hand_invalid.won_before_ending": "{players} has a winning case, so the hand ended when it was completed, not by {ending}",
      "refused.murdero.hand_invalid.reverse_charges_held": "Reverse Charges can only be played if it leaves its player three or fewer cards in hand, but every player holds more than three",
      "refused.murdero.hand_invalid.winners_differ": "the entry names {named} as winner(s), but the table shows {shown}"
    },
    de: {
      // the action-card reference (the card titles are printed in English on the cards)
      "mu.ref.lost_treasure.does": "Nimm eine beliebige Fallkarte von irgendwo aus dem Ablagestapel.",
      "mu.ref.lost_treasure.notes": "Eine Aktionskarte darfst du nicht nehmen.|Die Karte darf von überall aus dem Stapel kommen, nicht nur von oben.",
      "mu.ref.reverse_charges.does": "Beendet die Runde; niemand punktet doppelt, denn niemand hat einen Fall abgeschlossen.",
      "mu.ref.reverse_charges.notes": "Die genannten vier Karten schließen Reverse Charges selbst ein: spielbar nur, wenn danach höchstens drei Karten auf der Hand bleiben.",
      "mu.ref.shake_down.does": "Nimm eine deiner Fallkarten aus einem Satz aus dem Spiel und nimm einem anderen Spieler eine Fallkarte weg.",
      "mu.ref.shake_down.notes": "Die entfernte Karte muss deine eigene sein (auch beim Partner-Murdero) und in einem Satz liegen, nicht auf der Hand.|Du darfst nur eine Fallkarte nehmen, keine Aktionskarte.",
      "mu.ref.overtime.does": "Zieh die obersten drei Karten der Case File auf die Hand.",
      "mu.ref.overtime.notes": "Am Ende deines Zuges auf acht Karten abwerfen.|Wird die Case File dabei leer, endet die Runde.",
      "mu.ref.destroy.does": "Nimm eine ausliegende Permanent-Aktionskarte aus dem Spiel (ganz aus dem Spiel, nicht auf den Ablagestapel).",
      "mu.ref.destroy.notes": "Fallkarten kann sie nicht entfernen.",
      "mu.ref.sabotage.does": "Nimm eine ausliegende Karte aus dem Spiel; es darf eine eigene sein.",
      "mu.ref.sabotage.notes": "Wird eine Fallkarte aus der Mitte eines Falls entfernt, gehen die folgenden Karten mit.|Liegen zwei oder mehr Karten dieser Zahl im Fall, wird nur eine entfernt und die Karten danach bleiben.",
      "mu.ref.alibi.does": "Solange sie ausliegt, gewinnt ein abgeschlossener {colour} Fall die Runde nicht.",
      "mu.ref.alibi.notes": "Liegt die Karte aus, wenn ein {colour} Fall abgeschlossen wird, kann der Spieler mit diesem Fall nicht gewinnen, und die Runde endet nicht.|Wird sie entfernt, nachdem jemand einen {colour} Fall abgeschlossen hat, gewinnt der Spieler mit dem abgeschlossenen {colour} Fall.|Haben mehrere einen {colour} Fall abgeschlossen (etwa mit dem Joker), gewinnt jeder von ihnen und punktet in dieser Runde doppelt.",
      "mu.ref.colour.blue": "blauer", "mu.ref.colour.red": "roter", "mu.ref.colour.green": "grüner",
      "mu.ref.heavy_caseload.does": "Die Runde endet erst, wenn ein Spieler zwei Fälle abgeschlossen hat.",
      "mu.ref.heavy_caseload.notes": "Wird sie entfernt, während Spieler einen Fall abgeschlossen haben, gewinnt jeder mit einem abgeschlossenen Fall und punktet in dieser Runde doppelt.|Beim Partner-Murdero muss ein Spieler des Paares zwei Fälle abschließen; je einer genügt nicht.",
      "mu.ref.real_estate.does": "Liegt sie am Ende der Runde noch aus, bekommt ihr Besitzer 4 Punkte für jede ausliegende Crime Scene.",
      "mu.ref.real_estate.notes": "Beim Partner-Murdero punktet so nur der Besitzer, nicht der Partner.",
      "mu.ref.mitigating_circs.does": "Einmal pro Zug, als deine Aktion: entferne eine Fallkarte.",
      "mu.ref.mitigating_circs.notes": "Nicht in dem Zug, in dem du sie auslegst.|Beim Partner-Murdero darfst du nur eigene Fallkarten entfernen.",
      "mu.ref.joker.does": "Steht für eine Karte, die deinen Fall vervollständigt (etwa eine Waffe oder einen Verdächtigen).",
      "mu.ref.joker.notes": "Du musst ihn als Aktion deines Zuges spielen.|Wie jede Aktionskarte ist er 0 Punkte wert.",
      "mu.turn": "{name} ist dran", "mu.hand_n": "Runde {n}", "mu.to": "bis {n} Punkte",
      "mu.won": "{name} gewinnt das Spiel", "mu.won_many": "Geteilter Sieg: {names}",
      "mu.totals": "Punktestand", "mu.chart": "Punkte über die Runden", "mu.chart_empty": "Das Diagramm füllt sich nach der ersten Runde.",
      "mu.table": "Runden", "mu.table_empty": "Noch keine Runde gewertet.", "mu.hand": "Runde", "mu.total": "Gesamt",
      "mu.ended.case": "Fall abgeschlossen", "mu.ended.removal": "Alibi / Heavy Caseload entfernt",
      "mu.ended.reverse_charges": "Reverse Charges", "mu.ended.overtime": "Overtime (Case File leer)",
      "mu.winner": "hat die Runde gewonnen", "mu.nobody": "niemand gewann",
      "mu.entry": "Rundenende eingeben", "mu.entry_correct": "Runde {n} korrigieren",
      "mu.entry_hint": "Für jeden Spieler: die Karten jedes Falls, die ausliegenden Permanent-Karten und die Handkarten antippen.",
      "mu.add_case": "+ Fall {colour}", "mu.case": "Fall {colour}", "mu.remove_case": "Fall entfernen",
      "mu.cards_hint": "Zahl antippen fügt die Karte hinzu; Karte antippen nimmt sie weg",
      "mu.joker": "Joker als", "mu.joker_none": "kein Joker",
      "mu.permanents": "Ausliegende Permanent-Aktionskarten", "mu.held": "Karten auf der Hand",
      "mu.held_actions": "Aktionskarten", "mu.none_held": "keine",
      "mu.ended_by": "Wie die Runde endete", "mu.score": "Runde werten", "mu.save": "Korrektur speichern",
      "mu.clear": "Leeren", "mu.cancel": "Abbrechen", "mu.correct": "Korrigieren",
      "mu.refused": "Nicht angenommen: {reason}", "mu.scored": "Runde {n} gewertet",
      "mu.reference": "Aktionskarten", "mu.kind.one_shot": "einmalig", "mu.kind.permanent": "permanent",
      "mu.alibi_for": "Alibi für {colour}", "mu.earlier": "Frühere Spiele",
      "mu.pairs": "Partner-Murdero (Paare: 1.+3. gegen 2.+4., bis 200)", "mu.winner_badge": "Sieg", "mu.next": "Nächster Spieler", "mu.nothing": "keine Karten ausgelegt oder auf der Hand", "mu.pts": "{n} Pkt.",
      "colour.red": "Rot", "colour.blue": "Blau", "colour.green": "Grün",
      "mu.event.hand_entered": "Runde eingegeben", "mu.event.hand_corrected": "Runde {n} korrigiert",
      "mu.event.next_turn": "nächster Spieler", "mu.event.new_game": "neues Spiel", "mu.event.undo": "zurück",
      "mu.word.red": "Rot", "mu.word.blue": "Blau", "mu.word.green": "Grün",
      "mu.line.case": "Fall {colour} {cards}{joker}{complete}", "mu.line.joker": " (Joker als {n}, 0)",
      "mu.line.complete": ", vollständig", "mu.line.real_estate": "Real Estate: {scenes} Crime Scene(s) zählen je {worth} statt 1",
      "mu.line.won_doubled": "Runde gewonnen: Fallpunkte verdoppelt ({points} × 2 = {doubled})",
      "mu.line.left_in_hand": "auf der Hand: {cards}", "mu.held_case": "{colour} {n}", "mu.held_action": "{title}", "mu.times": " ×{n}",
      "mu.how.case": "mit einem Fall", "mu.how.removal": "durch eine Entfernung",
      "mu.why.none_complete": "kein Fall enthält alle Zahlen 1–5",
      "mu.why.heavy_caseload": "Heavy Caseload liegt aus, also braucht ein Spieler zwei abgeschlossene Fälle",
      "mu.why.alibi": "jeder abgeschlossene Fall hat eine Farbe, deren Alibi ausliegt",
      "mu.no_one": "niemanden", "mu.no_winner": "keinen Sieger",
      "refused.murdero.wrong_players": "die Runde nennt {listed}; in diesem Spiel spielen {players}",
      "refused.murdero.game_over": "das Spiel ist vorbei ({winners} gewann); ein neues Spiel starten",
      "refused.murdero.unknown_event": "Murdero kennt kein Ereignis {event}",
      "refused.murdero.no_such_hand": "es gibt keine Runde {number}; gespielt: {played}",
      "refused.murdero.correction_ends_game_early": "mit dieser Korrektur endet das Spiel schon nach Runde {ends_after}, gespielt wurden aber {played}; erst die späteren Runden zurücknehmen",
      "refused.murdero.bad_setup": "so geht es nicht los: 2 bis 4 Spieler mit verschiedenen Namen, Partner-Murdero mit genau vier",
      "refused.murdero.hand_invalid.not_a_card": "{player}: „{token}“ ist keine Karte: Fallkarten als Farbbuchstabe und Zahl (R3, B5, G1), Aktionskarten mit ihrem Namen",
      "refused.murdero.hand_invalid.nothing_to_sabotage": "der Fall {colour} hat keine {number} zum Sabotieren",
      "refused.murdero.hand_invalid.pairs_need_four": "Partner-Murdero ist für vier Spieler in Paaren, nicht {count}",
      "refused.murdero.hand_invalid.player_count": "Murdero ist für 2–4 Spieler, diese Runde hat {count}",
      "refused.murdero.hand_invalid.name_missing": "jeder Spieler braucht einen Namen",
      "refused.murdero.hand_invalid.names_repeat": "die Spielernamen müssen verschieden sein: {names} kommt doppelt vor",
      "refused.murdero.hand_invalid.too_many_held": "{players} halten mehr als {limit} Karten; am Ende seines Zuges wirft jeder auf {limit} ab, mehr darf nur halten, wessen Zug die Runde beendete",
      "refused.murdero.hand_invalid.too_many_cases": "{player} hat {count} Fälle; höchstens {limit} zugleich",
      "refused.murdero.hand_invalid.colour_twice": "{player} hat {count} Fälle in {colour}; jeder Fall braucht eine andere Farbe",
      "refused.murdero.hand_invalid.not_a_case_number": "{player}, Fall {colour}: {number} ist keine Fallkarten-Zahl (1–5)",
      "refused.murdero.hand_invalid.empty_case": "{player}, Fall {colour} ist leer; bitte weglassen",
      "refused.murdero.hand_invalid.no_crime_scene": "{player}, Fall {colour}: er beginnt nicht mit einer Crime Scene (1), jeder Fall muss damit beginnen",
      "refused.murdero.hand_invalid.joker_number": "{player}, Fall {colour}: der Joker ersetzt nur eine 2–5 (ein Fall beginnt mit einer echten Crime Scene)",
      "refused.murdero.hand_invalid.joker_doubles": "{player}, Fall {colour}: der Joker ersetzt eine {number}, die der Fall schon hat",
      "refused.murdero.hand_invalid.case_gaps": "{player}, Fall {colour}: es fehlt {gaps}; Fälle werden der Reihe nach gebaut, 1, 2, 3, 4, 5",
      "refused.murdero.hand_invalid.one_shot_in_play": "{player}: {card} ist One Shot und bleibt nie liegen",
      "refused.murdero.hand_invalid.joker_off_case": "{player}: den Joker auf den Fall legen, in dem er eine Zahl ersetzt",
      "refused.murdero.hand_invalid.too_many_permanents": "{player} hat {count} Permanent-Aktionskarten ausliegen, aber nur {cases} Fall/Fälle; je Fall im Bau höchstens eine",
      "refused.murdero.hand_invalid.too_many_cards": "{count} Karten {colour} {number} auf dem Tisch; das Spiel hat nur {copies}",
      "refused.murdero.hand_invalid.too_many_actions": "zu viele gleiche Aktionskarten ({cards}): das Spiel hat {spare} Karten über je eine jeder Sorte hinaus",
      "refused.murdero.hand_invalid.no_winning_case": "die Runde endete {how}, aber niemand hat einen Siegfall: {why}",
      "refused.murdero.hand_invalid.several_winners": "{players} haben alle einen Siegfall; mehrere gewinnen nur, wenn ein Alibi oder Heavy Caseload entfernt wird (Rundenende „Alibi / Heavy Caseload entfernt“)",
      "refused.murdero.hand_invalid.won_before_ending": "{players} hat einen Siegfall, also endete die Runde mit dessen Abschluss, nicht durch {ending}",
      "refused.murdero.hand_invalid.reverse_charges_held": "Reverse Charges darf nur spielen, wem danach höchstens drei Karten bleiben, aber jeder hält mehr als drei",
      "refused.murdero.hand_invalid.winners_differ": "die Eingabe nennt {named} als Sieger, der Tisch zeigt aber {shown}"
    }
  };
  C.addLabels(LABELS);  // the page's language, English where a label lacks it

  var titles = {};  // action card titles by id, from the view's reference (see remember)

  /* A label, or null where the page's labels have none (the caller falls back). */
  function worded(key, values) {
    var text = t(key, values);
    return text === key ? null : text;
  }

  /* Cards left in hand as the page's language names them, repeats counted as the rules do. */
  function heldCards(tokens) {
    var counts = {}, order = [];
    (tokens || []).forEach(function (token) {
      if (!counts[token]) order.push(token);
      counts[token] = (counts[token] || 0) + 1;
    });
    return order.map(function (token) {
      var m = /^([RBG])([1-5])$/.exec(token);
      var name = m ? t("mu.held_case", { token: token, colour: t("colour." + { R: "red", B: "blue", G: "green" }[m[1]]), n: m[2] })
        : t("mu.held_action", { token: token, title: titles[token] || token });
      return name + (counts[token] > 1 ? t("mu.times", { n: counts[token] }) : "");
    }).join(" ");
  }

  /* A refusal's details as its sentences want them: colours and endings named, card ids as
     titles, an empty list as "no one". */
  function details(d) {
    var out = Object.assign({}, d);
    if (d.colour) out.colour = t("mu.word." + d.colour);
    if (d.why) out.why = t("mu.why." + d.why);
    if (d.ended_by) {
      out.how = t("mu.how." + d.ended_by);
      out.ending = d.ended_by === "overtime" ? "Overtime" : "Reverse Charges";
    }
    if (d.card) out.card = titles[d.card] || d.card;
    if (Array.isArray(d.cards)) out.cards = d.cards.map(function (c) { return titles[c] || c; }).join(", ");
    if ("named" in d) out.named = d.named || t("mu.no_one");
    if ("shown" in d) out.shown = d.shown || t("mu.no_winner");
    return out;
  }

  /* One score line in the page's language; the rules' English reason where no label fits. */
  function line(l) {
    var d = l.details || {};
    var values = Object.assign({}, d);
    if (l.code === "case") {
      values.colour = t("mu.word." + d.colour);
      values.joker = d.joker ? t("mu.line.joker", { n: d.joker }) : "";
      values.complete = d.complete ? t("mu.line.complete") : "";
    } else if (l.code === "left_in_hand") {
      values.cards = heldCards(d.cards);
    }
    var text = l.code ? worded("mu.line." + l.code, values) : null;
    if (text === null) return l.reason;
    return d.player ? d.player + ": " + text : text;
  }

  function remember(view) {
    (view.reference || []).forEach(function (r) { titles[r.id] = r.title; });
  }

  /* A card's text in the page's language where the words file has it (the alibis share one
     text with their colour), else the server's English. */
  function reference(r) {
    var key = "mu.ref." + (r.alibi_for ? "alibi" : r.id);
    var colour = r.alibi_for ? t("mu.ref.colour." + r.alibi_for) : "";
    var does = t(key + ".does", { colour: colour });
    if (does === key + ".does") return { does: r.does, notes: r.notes || [] };
    return { does: does, notes: t(key + ".notes", { colour: colour }).split("|") };
  }

  C.words = C.words || {};
  C.words.murdero = { details: details, line: line, remember: remember, reference: reference };
})();
