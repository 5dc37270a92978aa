/* The camera view: MJPEG while the page is visible; hidden pages drop the stream so the
   companion's threads and the phone's battery are not spent on a picture nobody sees.
   The stream is opened only while the table says its camera is there (a request that can
   only fail would be an error on every load), and the picture is shown only once a frame
   came: no broken-image icon beside the note that says why there is none. The page looks at
   the camera's status now and then and opens the stream again when the camera is back. */
(function () {
  "use strict";
  var C = window.Companion;
  var img = document.getElementById("camera");
  if (!img) return;
  var note = document.getElementById("camera-note");
  var watching = false;
  function say(text) { note.textContent = text; note.hidden = !text; }
  function showPicture(on) { img.hidden = !on; }

  function start() {
    say("");
    watching = true;
    img.src = img.dataset.src + "?t=" + Date.now();
  }
  /* Dropping the stream: a fresh element without an address ends the old request (a
     browser may keep a multipart stream going while only its attribute goes). */
  function stop(reason) {
    watching = false;
    var fresh = C.el("img", { id: img.id, alt: img.alt, dataset: { src: img.dataset.src } });
    fresh.hidden = true;
    img.removeAttribute("src");
    img.replaceWith(fresh);
    img = fresh;
    listen();
    say(reason);
  }
  function listen() {
    img.addEventListener("load", function () { if (watching) showPicture(true); });
    img.addEventListener("error", function () {
      if (document.hidden || !watching) return;
      watching = false;
      showPicture(false);
      say(C.t("camera.error"));
    });
  }

  function check() {
    if (document.hidden) return;
    C.getJSON("/api/state").then(function (snap) {
      var status = (snap.camera || {}).status || "none";
      if (status === "ok") { if (!watching) start(); return; }
      var why = C.t("camera." + (status === "lost" ? "lost" : "none"));
      if (watching) stop(why); else say(why);
    }, function () {});
  }

  showPicture(false);
  listen();
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) stop(C.t("camera.paused")); else check();
  });
  window.addEventListener("pagehide", function () { stop(""); });
  check();
  setInterval(check, 5000);
})();
