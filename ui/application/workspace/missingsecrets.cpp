// SPDX-License-Identifier: MIT
#include "application/workspace/missingsecrets.h"

#include "application/workspace/workspacesecrets.h"

using namespace Qt::StringLiterals;

namespace Sonde {

MissingSecrets::Change MissingSecrets::update(const QString &server, const ServerConfig *config)
{
    const QStringList missing = config ? WorkspaceSecrets::missing(*config) : QStringList();
    const bool had = m_missing.contains(server);
    if (missing.isEmpty())
        m_missing.remove(server);
    else
        m_missing.insert(server, missing);
    if (!had && missing.isEmpty())
        return Change::None;
    return m_missing.isEmpty() ? Change::AllEntered : Change::StillMissing;
}

QStringList MissingSecrets::lines(const QString &storeKind) const
{
    QStringList lines;
    for (auto it = m_missing.cbegin(); it != m_missing.cend(); ++it)
        lines.append(tr("%1: the secret %2 is not in the %3 secret store; enter it again "
                        "(Edit server)")
                         .arg(it.key(), it.value().join(u", "_s), storeKind));
    return lines;
}

} // namespace Sonde
