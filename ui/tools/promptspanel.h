// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QJsonArray>
#include <QWidget>

class QLabel;
class QListView;
class QPlainTextEdit;

namespace Sonde {

class CompletionField;
class JsonListModel;
class SchemaFormWidget;
class ServerViewStore;

// Prompts: list, an argument form with completion suggestions where the server offers
// completion/complete, get, and the messages rendered. It shows one server of the
// ServerViewStore: its prompts and the last prompt fetched. Thread: GUI. It asks; the window
// calls the core.
class PromptsPanel : public QWidget
{
    Q_OBJECT
public:
    PromptsPanel(ServerViewStore *store, QWidget *parent = nullptr);
    void showServer(const QString &server);
    void setCompletionsAvailable(bool available);
    void showCompletion(const QString &argument, const QStringList &values);
    QString messagesText() const;
    bool selectPrompt(const QString &name);
    SchemaFormWidget *form() const { return m_form; }

Q_SIGNALS:
    void getRequested(const QString &prompt, const QJsonObject &arguments);
    void completionRequested(const QString &prompt, const QString &argument, const QString &value,
                             const QJsonObject &context);

private:
    void onCurrentChanged(const QModelIndex &index);
    void showPrompt();

    ServerViewStore *m_store = nullptr;
    QString m_server;
    JsonListModel *m_prompts = nullptr;
    QListView *m_list = nullptr;
    SchemaFormWidget *m_form = nullptr;
    CompletionField *m_completion = nullptr;
    QString m_current;
    QLabel *m_description = nullptr;
    QPlainTextEdit *m_messages = nullptr;
};

} // namespace Sonde
