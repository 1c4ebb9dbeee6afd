// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QJsonArray>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QStringListModel;

namespace Sonde {

class JsonListModel;
class JsonView;
class SchemaFormWidget;

// Resources and resource templates: list, fill a template's parameters, read, subscribe and
// unsubscribe, and see update notifications. Thread: GUI. It asks; the window calls the core.
class ResourcesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ResourcesPanel(QWidget *parent = nullptr);
    void setResources(const QJsonArray &resources);
    void setTemplates(const QJsonArray &templates);
    void showRead(const CallOutcome &outcome);
    void noteUpdated(const QString &uri);
    void showCompletion(const QString &argument, const QStringList &values);
    void setCompletionsAvailable(bool available);
    QString uri() const;
    QString contentText() const;

    // The URI a template gives with these values ({name} replaced, percent-encoded).
    static QString expandTemplate(const QString &uriTemplate, const QJsonObject &values);
    static QStringList templateVariables(const QString &uriTemplate);

Q_SIGNALS:
    void readRequested(const QString &uri);
    void subscribeRequested(const QString &uri, bool subscribe);
    void completionRequested(const QString &uriTemplate, const QString &argument,
                             const QString &value, const QJsonObject &context);

private:
    JsonListModel *m_resources = nullptr;
    JsonListModel *m_templates = nullptr;
    QListView *m_resourceList = nullptr;
    QListView *m_templateList = nullptr;
    SchemaFormWidget *m_parameters = nullptr;
    QString m_template;
    QLineEdit *m_uri = nullptr;
    QLabel *m_updates = nullptr;
    QPushButton *m_suggest = nullptr;
    QListView *m_suggestions = nullptr;
    QStringListModel *m_suggestionModel = nullptr;
    QString m_suggestionArgument;
    JsonView *m_content = nullptr;
    QString m_text;
};

// Prompts: list, an argument form with completion suggestions where the server offers
// completion/complete, get, and the messages rendered. Thread: GUI.
class PromptsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PromptsPanel(QWidget *parent = nullptr);
    void setPrompts(const QJsonArray &prompts);
    void setCompletionsAvailable(bool available);
    void showPrompt(const CallOutcome &outcome);
    void showCompletion(const QString &argument, const QStringList &values);
    QString messagesText() const;
    bool selectPrompt(const QString &name);
    SchemaFormWidget *form() const { return m_form; }

Q_SIGNALS:
    void getRequested(const QString &prompt, const QJsonObject &arguments);
    void completionRequested(const QString &prompt, const QString &argument, const QString &value,
                             const QJsonObject &context);

private:
    JsonListModel *m_prompts = nullptr;
    QListView *m_list = nullptr;
    SchemaFormWidget *m_form = nullptr;
    QPushButton *m_suggest = nullptr;
    QListView *m_suggestions = nullptr;
    QStringListModel *m_suggestionModel = nullptr;
    QString m_suggestionArgument;
    QString m_current;
    QLabel *m_description = nullptr;
    QPlainTextEdit *m_messages = nullptr;
};

} // namespace Sonde
