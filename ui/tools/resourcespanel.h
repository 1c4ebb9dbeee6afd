// SPDX-License-Identifier: MIT
#pragma once

#include "application/tools/resourcecontents.h"
#include "values/callvalues.h"

#include <QJsonArray>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace Sonde {

class CompletionField;
class JsonListModel;
class JsonView;
class SchemaFormWidget;
class ServerViewStore;

// Resources and resource templates: list, fill a template's parameters, read, subscribe and
// unsubscribe, and see update notifications. It shows one server of the ServerViewStore: its
// lists and its last read, whose text blocks (HTML, Markdown, plain) are shown as text and its
// blobs as their size and type, beside the answer's JSON; Save… writes the contents whole
// (the views show at most TextDisplay::MaxShownChars). Thread: GUI. It asks; the window calls
// the core.
class ResourcesPanel : public QWidget
{
    Q_OBJECT
public:
    ResourcesPanel(ServerViewStore *store, QWidget *parent = nullptr);
    void showServer(const QString &server);
    void noteUpdated(const QString &uri);
    void showCompletion(const QString &argument, const QStringList &values);
    void setCompletionsAvailable(bool available);
    QString uri() const;
    // The last read's contents as text (ResourceContents::text), or its error.
    QString contentText() const;
    // Writes the last read's contents whole (ResourceContents::bytesToSave).
    bool saveContents(const QString &path) const;
    // Reads `uri`, as if typed and Read pressed (the link from an MCP App tool).
    void read(const QString &uri);

    // The URI a template gives with these values ({name} replaced, percent-encoded).
    static QString expandTemplate(const QString &uriTemplate, const QJsonObject &values);
    static QStringList templateVariables(const QString &uriTemplate);

Q_SIGNALS:
    void readRequested(const QString &uri);
    void subscribeRequested(const QString &uri, bool subscribe);
    void completionRequested(const QString &uriTemplate, const QString &argument,
                             const QString &value, const QJsonObject &context);

private:
    void onTemplateChanged(const QModelIndex &index);
    void showLists();
    void showRead();
    void saveWithDialog();

    ServerViewStore *m_store = nullptr;
    QString m_server;
    QString m_template;          // the selected template; empty while a resource is selected
    QString m_text;              // the last read's text, for contentText()
    ResourceContents m_contents; // the last read's, for Save…
    bool m_completionsAvailable = true;
    JsonListModel *m_resources = nullptr;
    JsonListModel *m_templates = nullptr;
    QListView *m_resourceList = nullptr;
    QListView *m_templateList = nullptr;
    SchemaFormWidget *m_parameters = nullptr;
    QLineEdit *m_uri = nullptr;
    QLabel *m_updates = nullptr;
    CompletionField *m_completion = nullptr;
    QTabWidget *m_views = nullptr;
    QPlainTextEdit *m_textView = nullptr;
    JsonView *m_content = nullptr;
    QPushButton *m_save = nullptr;
};

} // namespace Sonde
