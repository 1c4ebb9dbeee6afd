// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLineEdit;
class QVBoxLayout;

namespace Sonde {

// A server's environment variables or HTTP headers as rows: name, value, a Secret switch and
// a remove button, and "Add" below. A secret value is masked as it is typed and when it is
// edited again; a secret the store could not give back (a memory store after a restart)
// shows an empty value saying "not stored: enter it again", and stays what it was when left
// empty. A name that is always secret (Authorization) keeps its switch on. Thread: GUI.
class NameValueEditor : public QWidget
{
    Q_OBJECT
public:
    struct Entry
    {
        QString name;
        QString value;
        bool secret = false;
        bool missing = false; // a secret without its value: the store did not have it
    };
    struct Options
    {
        QString noun;         // "variable", "header": in accessible names and the button
        QString nameHint;     // placeholder of a name
        bool secretByDefault; // a new row's switch
        std::function<bool(const QString &name)> alwaysSecret; // may be empty
    };

    explicit NameValueEditor(Options options, QWidget *parent = nullptr);

    void setEntries(const QList<Entry> &entries);
    // The rows with a name, in order. A missing secret the user did not type again keeps
    // `missing` and an empty value.
    QList<Entry> entries() const;
    int rowCount() const;
    // A new empty row, its name field focused.
    void addRow();

Q_SIGNALS:
    void changed();

private:
    struct Row
    {
        QWidget *widget = nullptr;
        QLineEdit *name = nullptr;
        QLineEdit *value = nullptr;
        QCheckBox *secret = nullptr;
        bool missing = false;
    };
    void append(const Entry &entry);
    void updateRow(Row &row);
    void renumber();

    Options m_options;
    QVBoxLayout *m_rows = nullptr;
    QList<Row> m_list;
};

} // namespace Sonde
