// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Sonde {

struct ServerConfig;

// Removes secrets from text that leaves the process (transcripts, exports, stderr lines,
// error messages, printed snapshots). Two kinds of rule:
// - values it was told about, masked verbatim wherever they appear: the configured env and
//   header values and URL password of a server (addSecrets), and MCP session ids;
// - patterns for what no configuration says: bearer and basic credentials, well-known
//   token formats (sk-, ghp_, xoxb-, AKIA..., JWTs), NAME=value / "name": "value" /
//   --name value where the name says it is a secret (GITHUB_TOKEN, X_API_KEY, "api_key",
//   client_secret, password...), and the password in scheme://user:password@host.
// A value object: the owner fills it on its own thread, after that it is read-only and may
// be copied to and used on any thread.
class Redactor
{
public:
    static constexpr auto Mask = "[REDACTED]";

    // The pattern rules and the given session ids only (no configured values known).
    static QString redact(const QString &text, const QStringList &sessionIds = {});

    // Every env value, header value and the URL's password of `config`, subject to the
    // rule in isWorthMaskingVerbatim().
    void addSecrets(const ServerConfig &config);
    void addSecret(const QString &value);
    void addSessionId(const QString &id);
    // The values it will mask verbatim (each one as given, not its escaped forms).
    QStringList knownValues() const { return m_known; }

    // Known values first (longest first, so a value holding another one is masked whole),
    // then the patterns.
    QString apply(const QString &text) const;
    // The same on every string inside a JSON document, keys left alone: for what is printed
    // as JSON (a snapshot, an error answer), so the result stays valid JSON.
    QJsonObject apply(const QJsonObject &object) const;

    // False when apply() certainly leaves the text (every string of the object) as it is:
    // no known value in it and no pattern's necessary substrings. Cheap; apply() asks first.
    bool mayHoldSecret(const QString &text) const;
    bool mayHoldSecret(const QJsonObject &object) const;

    // Whether a configured value is masked verbatim; see the comment at its definition.
    static bool isWorthMaskingVerbatim(const QString &value);
    // Whether a key name (env variable, JSON key, query parameter, header, flag) says its
    // value is a secret: GITHUB_TOKEN, X-API-Key, apiKey, client_secret, Mcp-Session-Id...
    static bool isSecretName(const QString &name);

private:
    void addVerbatim(const QString &value);

    QStringList m_known;    // what was added, for knownValues()
    QStringList m_variants; // each known value as written raw, JSON-escaped, shell-quoted
};

} // namespace Sonde
