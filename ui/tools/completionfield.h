// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QWidget>

class QListView;
class QPushButton;
class QStringListModel;

namespace Sonde {

class SchemaFormWidget;

// "Suggest values" for one argument of a form (a prompt's arguments, a resource template's
// variables): asks for the focused field, or the fallback argument when none has focus, and
// shows the server's suggestions; choosing one writes it into the form. Thread: GUI. It asks
// (requested); its panel sends completion/complete and hands the answer to showCompletion.
class CompletionField : public QWidget
{
    Q_OBJECT
public:
    CompletionField(SchemaFormWidget *form, const QString &buttonName, const QString &listName,
                    QWidget *parent = nullptr);
    void setToolTip(const QString &text);
    void setListHeight(int pixels);
    void setFallbackArgument(const QString &argument);
    // Whether the server offers completions: the button is enabled and the list shown.
    void setAvailable(bool available);
    bool isAvailable() const;
    void clear();
    // Only the answer for the argument asked last is shown.
    void showCompletion(const QString &argument, const QStringList &values);

Q_SIGNALS:
    // `context` holds the form's other values.
    void requested(const QString &argument, const QString &value, const QJsonObject &context);

private:
    void request();

    SchemaFormWidget *m_form = nullptr;
    QPushButton *m_suggest = nullptr;
    QListView *m_suggestions = nullptr;
    QStringListModel *m_model = nullptr;
    QString m_fallback;
    QString m_argument;
};

} // namespace Sonde
