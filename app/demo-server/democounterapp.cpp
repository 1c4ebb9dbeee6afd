// SPDX-License-Identifier: MIT
// The page of the demo's MCP App (counter-app's ui://demo/counter-app.html): hand-written
// HTML and JavaScript that speak the App side of io.modelcontextprotocol/ui (2026-01-26)
// over postMessage. It loads nothing and connects nowhere, so it works under a host's
// strictest policy (no network at all). Kept apart from demoserver.cpp so neither file
// passes 500 lines.
#include "demoserver.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QString DemoServer::counterAppPage()
{
    // Static, so a read stays valid however long a client keeps it (2026-07-28 caches it):
    // the counter comes from the tool's result, not from the page. A client that renders
    // no Apps shows this source, so it stays readable.
    return uR"html(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<title>Counter</title>
<style>
  /* Defaults for each theme; the host's styles.variables, set on the root element, win. */
  :root { --color-background-primary: #ffffff; --color-background-secondary: #eeeeee;
          --color-text-primary: #1b1b1f; --color-text-secondary: #5f6368;
          --color-text-danger: #b3261e; --color-border-primary: #8a8a8a; }
  :root[data-theme="dark"] {
          --color-background-primary: #1e1f22; --color-background-secondary: #2b2d31;
          --color-text-primary: #f0f0f0; --color-text-secondary: #a0a4a8;
          --color-text-danger: #f28b82; --color-border-primary: #6b6f75; }
  body { margin: 0; padding: 16px; font: 15px/1.4 system-ui, sans-serif;
         background: var(--color-background-primary); color: var(--color-text-primary); }
  h1 { margin: 0 0 8px; font-size: 18px; }
  #counter { margin: 0 0 12px; font-size: 40px; font-weight: bold; }
  button { padding: 6px 14px; font: inherit; cursor: pointer;
           color: var(--color-text-primary); background: var(--color-background-secondary);
           border: 1px solid var(--color-border-primary); border-radius: 6px; }
  button:disabled { opacity: 0.5; cursor: default; }
  #error { margin: 12px 0 0; color: var(--color-text-danger); }
  #note { margin: 12px 0 0; font-size: 13px; color: var(--color-text-secondary); }
</style>
</head>
<body>
<h1>Counter</h1>
<p id="counter">&hellip;</p>
<button id="increment" type="button" disabled>Increment</button>
<p id="error" hidden></p>
<p id="note">The counter comes from the counter-app tool's result; Increment calls
the tool increment-counter through the host.</p>
<script>
"use strict";
(function () {
  var counter = document.getElementById("counter");
  var button = document.getElementById("increment");
  var errorLine = document.getElementById("error");
  var pending = {};
  var nextId = 1;
  var lastSize = "";

  // JSON-RPC 2.0 with the host, the page's parent.
  function post(message) { window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    post({ jsonrpc: "2.0", id: id, method: method, params: params });
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
    });
  }
  function notify(method, params) { post({ jsonrpc: "2.0", method: method, params: params }); }
  function log(level, text) {
    notify("notifications/message", { level: level, logger: "counter-app", data: text });
  }

  function sizeChanged() {
    var rect = document.documentElement.getBoundingClientRect();
    var size = { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
    if (size.width + "x" + size.height === lastSize) return;
    lastSize = size.width + "x" + size.height;
    notify("ui/notifications/size-changed", size);
  }
  // A JSON-RPC error from the host ({code, message}) or a thrown Error.
  function messageOf(error) {
    if (error && error.code !== undefined) return error.code + " " + error.message;
    return error && error.message ? error.message : String(error);
  }
  function showError(text) {
    errorLine.textContent = text;
    errorLine.hidden = !text;
    if (text) log("error", text);
    sizeChanged();
  }

  // The host's theme: hostContext at initialize, its changed part later.
  function applyContext(context) {
    if (!context || typeof context !== "object") return;
    var root = document.documentElement;
    if (context.theme === "light" || context.theme === "dark") {
      root.setAttribute("data-theme", context.theme);
      root.style.colorScheme = context.theme;
    }
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object")
      Object.keys(variables).forEach(function (name) {
        if (typeof variables[name] === "string") root.style.setProperty(name, variables[name]);
      });
  }

  // A tools/call result: structuredContent.counter, else the text "counter = N".
  function textOf(result) {
    var content = (result && result.content) || [];
    for (var i = 0; i < content.length; ++i)
      if (content[i] && content[i].type === "text") return content[i].text;
    return "";
  }
  function counterOf(result) {
    var structured = result && result.structuredContent;
    if (structured && typeof structured.counter === "number") return structured.counter;
    var match = /counter = (-?\d+)/.exec(textOf(result));
    return match ? Number(match[1]) : null;
  }
  function showResult(result, what) {
    if (!result || result.isError) {
      showError(what + " failed: " + (textOf(result) || "no result"));
      return;
    }
    var value = counterOf(result);
    if (value === null) {
      showError(what + " answered without a counter: " + textOf(result));
      return;
    }
    counter.textContent = String(value);
    showError("");
    log("info", "counter " + value);
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    request("tools/call", { name: "increment-counter", arguments: {} })
      .then(function (result) { showResult(result, "increment-counter"); },
            function (error) {
              showError("increment-counter failed: " + messageOf(error));
            })
      .then(function () { button.disabled = false; });
  });

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var m = event.data;
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      var waiting = pending[m.id];
      if (!waiting) return;
      delete pending[m.id];
      if (m.error) waiting.reject(m.error);
      else waiting.resolve(m.result);
    } else if (m.id !== undefined) {
      if (m.method === "ui/resource-teardown" || m.method === "ping")
        post({ jsonrpc: "2.0", id: m.id, result: {} });
      else
        post({ jsonrpc: "2.0", id: m.id,
               error: { code: -32601, message: "Method not found: " + m.method } });
    } else if (m.method === "ui/notifications/tool-result") {
      showResult(m.params, "counter-app");
    } else if (m.method === "ui/notifications/tool-cancelled") {
      showError("the counter-app call was cancelled");
    } else if (m.method === "ui/notifications/host-context-changed") {
      applyContext(m.params);
    }
  });

  window.addEventListener("resize", sizeChanged);
  request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "sonde-demo-counter", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] }
  }).then(function (result) {
    applyContext(result && result.hostContext);
    notify("ui/notifications/initialized", {});
    button.disabled = false;
    sizeChanged();
  }, function (error) {
    showError("the host refused ui/initialize: " + messageOf(error));
  });
})();
</script>
</body>
</html>
)html"_s;
}

} // namespace Sonde
