// SPDX-License-Identifier: MIT
#include "config/placeholderresolver.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace Sonde {

PlaceholderResolver::PlaceholderResolver()
    : m_environment([](const QString &name) -> std::optional<QString> {
          if (!qEnvironmentVariableIsSet(name.toLocal8Bit().constData()))
              return std::nullopt;
          return qEnvironmentVariable(name.toLocal8Bit().constData());
      })
{
}

// The index of the '}' that closes the "${" at `start`, counting nested "${" (a default may
// hold a placeholder itself), or -1.
static qsizetype closingBrace(const QString &text, qsizetype start)
{
    int depth = 0;
    for (qsizetype i = start; i < text.size(); ++i) {
        if (text[i] == u'$' && i + 1 < text.size() && text[i + 1] == u'{') {
            ++depth;
            ++i;
        } else if (text[i] == u'}' && --depth == 0) {
            return i;
        }
    }
    return -1;
}

static bool isVariableName(QStringView name)
{
    if (name.isEmpty() || !(name[0].isLetter() || name[0] == u'_'))
        return false;
    for (QChar c : name) {
        if (!(c.isLetterOrNumber() || c == u'_') || c.unicode() > 127)
            return false;
    }
    return true;
}

bool PlaceholderResolver::containsPlaceholder(const QString &text)
{
    return text.contains("${"_L1);
}

QString PlaceholderResolver::resolve(const QString &text, Error *error)
{
    if (!containsPlaceholder(text))
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype start = text.indexOf("${"_L1, i);
        if (start < 0) {
            out += QStringView(text).mid(i);
            break;
        }
        out += QStringView(text).mid(i, start - i);
        const qsizetype end = closingBrace(text, start);
        if (end < 0) {
            *error =
                Error::protocol(u"\"%1\" has a \"${\" that is not closed by \"}\""_s.arg(text));
            return {};
        }
        const std::optional<QString> value =
            resolveOne(text.mid(start + 2, end - start - 2), error);
        if (!value)
            return {};
        out += *value;
        i = end + 1;
    }
    return out;
}

std::optional<QString> PlaceholderResolver::resolveOne(const QString &body, Error *error)
{
    const QString placeholder = u"${"_s + body + u'}';
    auto fail = [&](const QString &why) -> std::optional<QString> {
        *error = Error::protocol(placeholder + u' ' + why);
        return std::nullopt;
    };
    if (body.startsWith("env:"_L1)) {
        const QString name = body.mid(4);
        if (name.isEmpty())
            return fail(u"names no variable"_s);
        const std::optional<QString> v = m_environment(name);
        if (!v)
            return fail(u"is not set: the environment variable %1 is not defined"_s.arg(name));
        return v;
    }
    if (body.startsWith("input:"_L1)) {
        const QString id = body.mid(6);
        if (const auto it = m_answers.constFind(id); it != m_answers.constEnd())
            return *it;
        if (!m_inputProvider)
            return fail(u"needs a value typed in by the user; only the GUI can ask for it"_s);
        ConfigInput input = m_inputs.value(id);
        input.id = id;
        const std::optional<QString> v = m_inputProvider(input);
        if (!v)
            return fail(u"was not given"_s);
        m_answers.insert(id, *v);
        return v;
    }
    if (body == "workspaceFolder"_L1 || body == "workspaceFolderBasename"_L1) {
        if (m_workspaceFolder.isEmpty())
            return fail(u"is unknown: the configuration was not read from a file"_s);
        return body == "workspaceFolder"_L1 ? m_workspaceFolder
                                            : QFileInfo(m_workspaceFolder).fileName();
    }
    if (body == "userHome"_L1)
        return QDir::homePath();
    if (body == "pathSeparator"_L1 || body == "/"_L1)
        return QString(QDir::separator());

    // Claude Code: ${NAME} or ${NAME:-default}
    const qsizetype dflt = body.indexOf(":-"_L1);
    const QString name = dflt < 0 ? body : body.left(dflt);
    if (!isVariableName(name))
        return fail(u"is not a placeholder Sonde knows (${env:NAME}, ${input:ID}, "
                    u"${workspaceFolder}, ${NAME}, "
                    "${NAME:-default})"_s);
    const std::optional<QString> v = m_environment(name);
    if (dflt < 0) {
        if (!v)
            return fail(
                u"is not set: the environment variable %1 is not defined and has no default "
                "(write ${%1:-default} for one)"_s.arg(name));
        return v;
    }
    // As in sh: the default also applies to a variable that is set but empty.
    if (v && !v->isEmpty())
        return v;
    const QString fallback = resolve(body.mid(dflt + 2), error);
    if (error->isError())
        return std::nullopt;
    return fallback;
}

} // namespace Sonde
