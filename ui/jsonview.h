// SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>

namespace Sonde {

// A read-only view of a JSON document with syntax highlighting: KSyntaxHighlighting when it
// was found at build time, a small built-in highlighter otherwise (the choice stays in the
// .cpp, so this header never names KSyntaxHighlighting).
class JsonView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit JsonView(QWidget *parent = nullptr);
    ~JsonView() override;
    void setJson(const QByteArray &json);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Sonde
