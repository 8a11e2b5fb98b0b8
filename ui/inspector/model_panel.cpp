#include "ui/inspector/model_panel.h"

#include <QLocale>

#include "inspect/model_summary.h"
#include "ir/model.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "util/json_dump.h"

namespace fb::ui {

ModelPanel::ModelPanel(Document* doc, QWidget* parent) : PropertyPanel(doc, parent) {
  connect(doc_, &Document::modelChanged, this, &ModelPanel::refresh);
}

void ModelPanel::refresh() {
  model_->reset();
  const ir::Model* m = doc_->model();
  if (!m) return;
  const ModelSummary s = summarize(*m);
  auto q = [](const std::string& x) { return QString::fromStdString(x); };
  auto* general = model_->addSection(tr("Model"));
  model_->addRow(general, tr("file"), doc_->path());
  model_->addRow(general, tr("format"), q(s.format));
  model_->addRow(general, tr("producer"),
                 q(s.producerName + (s.producerVersion.empty() ? "" : " " + s.producerVersion)));
  model_->addRow(general, tr("IR version"), QString::number(s.irVersion));
  QStringList opsets;
  for (const auto& o : s.opsets)
    opsets << QStringLiteral("%1 %2").arg(o.domain.empty() ? QStringLiteral("ai.onnx") : q(o.domain)).arg(o.version);
  model_->addRow(general, tr("opsets"), opsets.join(", "));
  model_->addRow(general, tr("nodes"),
                 QStringLiteral("%1 (+%2 in %3 subgraphs)").arg(s.nodes).arg(s.subgraphNodes).arg(s.subgraphs));
  model_->addRow(general, tr("functions"), QString::number(s.functions));
  model_->addRow(general, tr("initializers"), QString::number(s.initializers));
  model_->addRow(general, tr("parameters"), QLocale().toString(qulonglong(s.parameters)));
  model_->addRow(general, tr("parameter bytes"), QLocale().formattedDataSize(qint64(s.parameterBytes)));
  if (!m->metadata.empty()) {
    auto* meta = model_->addSection(tr("Metadata"));
    for (const auto& [k, v] : m->metadata) model_->addRow(meta, q(k), q(v));
  }
  auto ioText = [](const ModelSummary::Io& io) {
    return QStringLiteral("%1 %2").arg(QString::fromStdString(io.dtype),
                                       QString::fromStdString(dumpJson(io.shape, -1)));
  };
  auto* inputs = model_->addSection(tr("Inputs"));
  for (const auto& io : s.inputs) model_->addValueLink(inputs, q(io.name), ioText(io), m->graph().findValue(io.name));
  auto* outputs = model_->addSection(tr("Outputs"));
  for (const auto& io : s.outputs) model_->addValueLink(outputs, q(io.name), ioText(io), m->graph().findValue(io.name));
  if (!m->functions.empty()) {
    auto* fns = model_->addSection(tr("Functions"));
    for (const auto& f : m->functions)
      model_->addGraphLink(fns, q(f.domain + "::" + f.name),
                           tr("%1 nodes (open)").arg(f.body ? f.body->nodeCount() : 0), f.body.get());
  }
  finish();
}

}  // namespace fb::ui
