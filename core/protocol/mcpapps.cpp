// SPDX-License-Identifier: MIT
#include "mcpapps.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde::McpApps {

QJsonObject withExtension(QJsonObject capabilities)
{
    QJsonObject extensions = capabilities.value("extensions"_L1).toObject();
    extensions.insert(QLatin1StringView(Id),
                      QJsonObject{{"mimeTypes"_L1, QJsonArray{QLatin1StringView(MimeType)}}});
    capabilities.insert("extensions"_L1, extensions);
    return capabilities;
}

QJsonObject withoutExtension(QJsonObject capabilities)
{
    QJsonObject extensions = capabilities.value("extensions"_L1).toObject();
    if (!extensions.contains(QLatin1StringView(Id)))
        return capabilities;
    extensions.remove(QLatin1StringView(Id));
    if (extensions.isEmpty())
        capabilities.remove("extensions"_L1);
    else
        capabilities.insert("extensions"_L1, extensions);
    return capabilities;
}

std::optional<QString> resourceUri(const QJsonObject &tool, QString *error)
{
    const QJsonObject meta = tool.value("_meta"_L1).toObject();
    QJsonValue uri = meta.value("ui"_L1).toObject().value("resourceUri"_L1);
    if (!uri.isString())
        uri = meta.value("ui/resourceUri"_L1);
    if (!uri.isString())
        return std::nullopt;
    if (!uri.toString().startsWith(u"ui://"_s)) {
        if (error)
            *error = u"the tool names \"%1\" for its App, not a ui:// resource"_s.arg(
                uri.toString().left(200));
        return std::nullopt;
    }
    return uri.toString();
}

Visibility visibility(const QJsonObject &tool)
{
    const QJsonValue v =
        tool.value("_meta"_L1).toObject().value("ui"_L1).toObject().value("visibility"_L1);
    if (!v.isArray())
        return {};
    const QJsonArray a = v.toArray();
    return {a.contains(u"model"_s), a.contains(u"app"_s)};
}

} // namespace Sonde::McpApps
