/* orderly.js - small enhancements of the web page (served as
 * /static/orderly.js); every page works without it.
 *  - a secret link /g/NAME/login?side=S#PASSPHRASE fills the passphrase
 *    (the part after '#' never reaches the server), then forgets it;
 *  - deadlines count down, and are shown in the viewer's own time too
 *    (the page gives them in UTC: the server does not know his zone);
 *  - a problem's "line L, column C" puts the cursor there in the sheet;
 *  - a sheet larger than the server takes is kept in its box, unsent;
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
			local.textContent = " (your time: " + at.toLocaleString(undefined, {
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

	/* a sheet larger than the server takes (the box's data-max, the
	 * form's body as the browser sends it) is not sent: the server drops
	 * what is past its limit and could not give the text back */
	if (area && area.dataset.max && area.form) {
		area.form.addEventListener("submit", function (ev) {
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
