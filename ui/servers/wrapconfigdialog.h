// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Sonde {

// Server → Wrap in a client config… (docs/proxy.md): the entries of a Claude Desktop, Claude
// Code, Cursor or VS Code config, each marked wrapped or direct, and Wrap and Unwrap for the
// selected one (ConfigWrapper: only that entry's bytes change, a backup is kept, unwrap
// restores it byte for byte). Each write is asked for first, showing the entry as it is and
// as it will be. The client then runs `sonde-cli proxy`, which this window shows as a row.
// Thread: GUI.
class WrapConfigDialog : public QDialog
{
    Q_OBJECT
public:
    // `sondeCli`: the sonde-cli the client will run (the one beside this program).
    WrapConfigDialog(QString sondeCli, QWidget *parent = nullptr);

    // Reads `path` and lists its entries (what Browse… does after choosing).
    void load(const QString &path);
    // Wraps or unwraps the selected entry; `confirm` false skips the question (tests).
    void wrapSelected(bool confirm = true);
    void unwrapSelected(bool confirm = true);
    // A wrapped HTTP entry's proxy, started detached (it outlives the window, as the client
    // needs it to): `sonde-cli proxy --listen 127.0.0.1:PORT --target URL`. Its pid, or 0.
    qint64 startProxySelected();
    QTreeWidget *entries() const { return m_entries; }
    QString message() const;

Q_SIGNALS:
    void changed(const QString &path, const QString &message);

private:
    void updateButtons();
    void say(const QString &text);

    QString m_sondeCli;
    QString m_path;
    QLineEdit *m_file = nullptr;
    QTreeWidget *m_entries = nullptr;
    QSpinBox *m_port = nullptr;
    QPushButton *m_wrap = nullptr;
    QPushButton *m_unwrap = nullptr;
    QPushButton *m_start = nullptr;
    QLabel *m_message = nullptr;
};

} // namespace Sonde
