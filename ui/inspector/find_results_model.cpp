#include "ui/inspector/find_results_model.h"

#include <functional>

#include "ir/graph.h"

namespace fb::ui {

FindResultsModel::FindResultsModel(QObject* parent) : QAbstractListModel(parent) {}

void FindResultsModel::search(const ir::Graph* g, const QString& text, int limit) {
  beginResetModel();
  matches_.clear();
  total_ = 0;
  const std::string needle = text.trimmed().toLower().toStdString();
  auto contains = [&](const std::string& hay) {
    if (needle.empty() || hay.size() < needle.size()) return false;
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                          [](char a, char b) { return std::tolower((unsigned char)a) == b; });
    return it != hay.end();
  };
  auto add = [&](Match m) {
    ++total_;
    if (int(matches_.size()) < limit) matches_.push_back(std::move(m));
  };
  std::function<void(const ir::Graph&, const QString&)> searchIn = [&](const ir::Graph& graph, const QString& where) {
    const QString suffix = where.isEmpty() ? QString() : QObject::tr("  in %1").arg(where);
    for (const auto& n : graph.nodes()) {
      if (contains(n->name) || contains(n->opType))
        add({n.get(), nullptr,
             QStringLiteral("%1  [%2]").arg(QString::fromStdString(n->name), QString::fromStdString(n->opType)) +
                 suffix});
    }
    for (const ir::Value* v : graph.values()) {
      if (contains(v->name()) && !v->isOuterScope())
        add({nullptr, v, QObject::tr("tensor %1").arg(QString::fromStdString(v->name())) + suffix});
    }
    for (const auto& n : graph.nodes())
      for (const auto& a : n->attributes)
        for (const auto& body : a.graphs)
          if (body) {
            const QString owner = QString::fromStdString(n->name.empty() ? n->opType : n->name);
            searchIn(*body, (where.isEmpty() ? QString() : where + '/') + owner + '/' + QString::fromStdString(a.name));
          }
  };
  if (g && !needle.empty()) searchIn(*g, {});
  endResetModel();
}

int FindResultsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(matches_.size()); }

QVariant FindResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || role != Qt::DisplayRole) return {};
  return matches_[index.row()].text;
}

}  // namespace fb::ui
