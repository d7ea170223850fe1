/* orderly.js - small enhancements of the web page (served as
 * /static/orderly.js); every page works without it.
 *  - a secret link /g/NAME/login?side=S#PASSPHRASE fills the passphrase
 *    (the part after '#' never reaches the server), then forgets it;
 *  - deadlines count down, and are shown in the viewer's own time too
 *    (the page gives them in UTC: the server does not know his zone);
 *  - a problem's "line L, column C" puts the cursor there in the sheet;
 *  - a sheet larger than the server takes is kept in its box, unsent;
 *  - Submit pressed from the keyboard a moment after typing in the box
 *    (Tab, Tab, Enter where a line was meant) asks first;
 *  - the receipt's Print button. */
(function () {
	"use strict";

	var pass = document.getElementById("passphrase");
	if (pass && location.hash.length > 1) {
		try {
			pass.value = decodeURIComponent(location.hash.slice(1));
		} catch (e) {
			pass.value = location.hash.slice(1);
		}
		history.replaceState(null, "", location.pathname + location.search);
	}

	function duration(s) {
		s = Math.abs(Math.floor(s));
		if (s >= 86400) return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
		if (s >= 3600) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
		if (s >= 60) return Math.floor(s / 60) + " min " + (s % 60) + " s";
		return s + " s";
	}
	/* a time the page gives in UTC (<time class="utc" datetime=...>), in
	 * the viewer's own zone beside it; nothing when that is UTC too */
	document.querySelectorAll("time.utc[datetime]").forEach(function (t) {
		var at = new Date(t.getAttribute("datetime"));
		if (isNaN(at.getTime()) || at.getTimezoneOffset() === 0) return;
		var local = document.createElement("span");
		local.className = "local";
		try {
			/* a time of class "second" is to the second (the seal's
			 * confirmation: web.h, WEB_TIME_SECOND) */
			local.textContent = " (your time: " + at.toLocaleString(undefined, t.classList.contains("second") ? {
				hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short"} : {
				weekday: "short", day: "numeric", month: "short", hour: "2-digit",
				minute: "2-digit", timeZoneName: "short"}) + ")";
		} catch (e) {
			local.textContent = " (your time: " + at.toString() + ")";
		}
		t.parentNode.insertBefore(local, t.nextSibling);
	});

	var clocks = document.querySelectorAll("time.deadline");
	if (clocks.length) {
		var start = Date.now();
		var tick = function () {
			clocks.forEach(function (t) {
				var at = Number(t.dataset.at), now = Number(t.dataset.now) + (Date.now() - start) / 1000;
				var left = t.parentNode.querySelector(".left");
				if (!left) return;
				left.textContent = at > now ? "(" + duration(at - now) + " left)" : "(passed " + duration(now - at) + " ago)";
			});
		};
		tick();
		setInterval(tick, 1000);
	}

	var area = document.getElementById("sheet-text");
	document.querySelectorAll("a.at[data-line]").forEach(function (a) {
		a.addEventListener("click", function (ev) {
			if (!area) return;
			ev.preventDefault();
			var line = Number(a.dataset.line), col = Math.max(1, Number(a.dataset.col) || 1);
			var lines = area.value.split("\n"), pos = 0;
			for (var i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
			var here = lines[line - 1] || "";
			pos += Math.min(Array.from(here).slice(0, col - 1).join("").length, here.length);
			area.focus();
			area.setSelectionRange(pos, pos + (here.length ? 1 : 0));
		});
	});

	/* Submit from the keyboard (Enter or Space on the button: a click of
	 * detail 0) less than a moment after the box last changed is asked
	 * first: a laptop's Tab leaves the box, and the Enter meant for a new
	 * line would hand a half-written sheet to the referee as a version.
	 * The question's first button keeps writing, so a second Enter is
	 * harmless; a tap or a click on Submit is never asked.  Without the
	 * script the first button after the box is Check, which stores nothing. */
	var MOMENT = 3000;
	var typed = 0, sure = false;
	var send = area && area.form && area.form.querySelector('button[name="action"][value="submit"]');
	if (send) {
		area.addEventListener("input", function () { typed = Date.now(); });
		send.addEventListener("click", function (ev) {
			if (ev.detail !== 0 || sure || Date.now() - typed >= MOMENT) return;
			ev.preventDefault();
			var ask = document.getElementById("submit-ask");
			if (!ask) {
				ask = document.createElement("div");
				ask.id = "submit-ask";
				ask.className = "result warn";
				ask.setAttribute("role", "alertdialog");
				ask.setAttribute("aria-labelledby", "submit-ask-q");
				ask.innerHTML = '<p id="submit-ask-q"><b>Submit this sheet now?</b> You pressed ' +
					"Submit from the keyboard right after typing in the box. Submit hands the " +
					"sheet to the referee as a version; if you meant to go on writing, nothing " +
					"is sent.</p><div class=\"actions\"><button type=\"button\" class=\"secondary " +
					"keep\">Keep writing</button><button type=\"button\" class=\"go\">" +
					"Submit it</button></div>";
				send.parentNode.parentNode.insertBefore(ask, send.parentNode.nextSibling);
				ask.querySelector(".keep").addEventListener("click", function () {
					ask.remove();
					area.focus();
				});
				ask.querySelector(".go").addEventListener("click", function () {
					ask.remove();
					sure = true;
					if (area.form.requestSubmit) area.form.requestSubmit(send);
					else send.click();
					sure = false;
				});
			}
			ask.querySelector(".keep").focus();
		});
	}

	/* a sheet larger than the server takes (the box's data-max, the
	 * form's body as the browser sends it) is not sent: the server drops
	 * what is past its limit and could not give the text back */
	if (area && area.dataset.max && area.form) {
		area.form.addEventListener("submit", function (ev) {
			if (ev.defaultPrevented) return;
			var body = new URLSearchParams(new FormData(area.form)).toString();
			/* the browser sends each line end as CRLF (%0D%0A), the button's name too */
			var size = body.length + 3 * (area.value.split("\n").length - 1) + 16;
			var max = Number(area.dataset.max), note = document.getElementById("too-large");
			if (size <= max) return;
			ev.preventDefault();
			if (!note) {
				note = document.createElement("div");
				note.id = "too-large";
				note.className = "result bad";
				note.setAttribute("role", "alert");
				area.parentNode.insertBefore(note, area);
			}
			note.textContent = "Too large to send: " + size + " bytes as the form sends them, and the " +
				"server takes " + max + " (1 MiB). Nothing was sent: your text is still in the box; " +
				"shorten it (comments too count).";
			note.scrollIntoView();
		});
	}

	document.querySelectorAll("button.print").forEach(function (b) {
		b.hidden = false;
		b.addEventListener("click", function () { window.print(); });
	});
})();
