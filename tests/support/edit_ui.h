#pragma once
// For the editing UI tests: the bytes the project's ONNX serializer makes of a model (what Save writes, so two
// models with equal bytes are structurally equal), the Edit menu's actions by name, and answers to the edit
// actions' questions given in advance.
#include <QAction>
#include <QMenuBar>
#include <QStringList>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <memory>
#include <string>

#include "formats/onnx/model_serializer.h"
#include "ir/graph.h"
#include "ui/document.h"
#include "ui/edit/edit_actions.h"
#include "ui/edit/editing.h"
#include "ui/main_window.h"

namespace fb::test {

inline std::string modelBytes(const ir::Model& m) {
  std::string s;
  {
    google::protobuf::io::StringOutputStream out(&s);
    onnxfmt::ModelSerializer(m).writeTo(out);
  }
  return s;
}

inline QAction* editAction(ui::MainWindow& w, const QString& objectName) {
  for (QAction* a : w.editing()->actions()->actions())
    if (a->objectName() == objectName) return a;
  return nullptr;
}

inline const ir::Node* nodeNamed(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name == name) return n.get();
  return nullptr;
}

// Answers the questions in order: texts from `texts`, choices by index from `items`. Records what was asked;
// a question without an answer left is cancelled.
struct ScriptedAnswers {
  QStringList texts;
  QList<int> items;
  QStringList choose;  // choices by text, asked before `items`
  QStringList asked;
  QList<QStringList> offered;
  ui::EditQuestions questions() {
    ui::EditQuestions q;
    q.text = [this](QWidget*, const QString&, const QString& label, const QString&) -> std::optional<QString> {
      asked << label;
      if (texts.isEmpty()) return std::nullopt;
      return texts.takeFirst();
    };
    q.item = [this](QWidget*, const QString&, const QString& label, const QStringList& choices,
                    int) -> std::optional<QString> {
      asked << label;
      offered << choices;
      if (!choose.isEmpty()) {
        const QString c = choose.takeFirst();
        return choices.contains(c) ? std::optional(c) : std::nullopt;
      }
      if (items.isEmpty() || items.front() >= choices.size()) return std::nullopt;
      return choices[items.takeFirst()];
    };
    return q;
  }
};

}  // namespace fb::test
