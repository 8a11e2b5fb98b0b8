#include "ui/conversion/status_badges.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QScopeGuard>
#include <QStringList>
#include <algorithm>

#include "ir/graph.h"
#include "ir/node.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/theme/colors.h"

namespace fb::ui {
namespace {

constexpr int kBadgeKey = 0x5a8;  // QGraphicsItem::data key that tags our badges

// The statuses a badge counts, most urgent first; unchanged nodes need no mark.
constexpr convert::NodeStatus kShown[] = {convert::NodeStatus::Failed, convert::NodeStatus::Unsupported,
                                          convert::NodeStatus::Converted, convert::NodeStatus::Kept};

class BadgeItem : public QGraphicsItem {
 public:
  BadgeItem(const StatusBadges::Counts& counts, const QRectF& box, QGraphicsItem* parent)
      : QGraphicsItem(parent), counts_(counts) {
    setData(kBadgeKey, true);
    setAcceptedMouseButtons(Qt::NoButton);
    font_.setPointSizeF(7.5);
    font_.setBold(true);
    const QFontMetricsF fm(font_);
    double x = 0;
    QStringList tip;
    for (convert::NodeStatus s : kShown) {
      const int n = counts_.value(s, 0);
      if (!n) continue;
      const QString text = QString::number(n);
      const double w = fm.horizontalAdvance(text) + 8;
      segments_.push_back({QRectF(x, 0, w, fm.height() + 2), text, statusColor(s)});
      x += w + 2;
      tip << QObject::tr("%1 %2").arg(n).arg(
          QString::fromUtf8(convert::statusName(s).data(), int(convert::statusName(s).size())));
    }
    size_ = QSizeF(std::max(0.0, x - 2), fm.height() + 2);
    setToolTip(QObject::tr("Inside: %1").arg(tip.join(QStringLiteral(", "))));
    // Over the top-right corner of the box, where it does not hide the label.
    setPos(box.right() - size_.width() + 4, box.top() - size_.height() / 2 - 2);
    setZValue(3);
  }
  QRectF boundingRect() const override { return QRectF(QPointF(0, 0), size_).adjusted(-1, -1, 1, 1); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    p->setFont(font_);
    for (const auto& seg : segments_) {
      p->setPen(Qt::NoPen);
      p->setBrush(seg.color);
      p->drawRoundedRect(seg.rect, 4, 4);
      p->setPen(Qt::white);
      p->drawText(seg.rect, Qt::AlignCenter, seg.text);
    }
  }
  const StatusBadges::Counts& counts() const { return counts_; }

 private:
  struct Segment {
    QRectF rect;
    QString text;
    QColor color;
  };
  StatusBadges::Counts counts_;
  QFont font_;
  std::vector<Segment> segments_;
  QSizeF size_;
};

void countNode(const ir::Node& n, const StatusBadges::StatusOf& statusOf, StatusBadges::Counts& out, bool self);

void countGraph(const ir::Graph& g, const StatusBadges::StatusOf& statusOf, StatusBadges::Counts& out) {
  for (const auto& n : g.nodes()) countNode(*n, statusOf, out, true);
}

void countNode(const ir::Node& n, const StatusBadges::StatusOf& statusOf, StatusBadges::Counts& out, bool self) {
  if (self)
    if (auto s = statusOf(n.id()); s && *s != convert::NodeStatus::Unchanged) ++out[*s];
  for (const ir::Graph* sub : n.subgraphs()) countGraph(*sub, statusOf, out);
}

}  // namespace

StatusBadges::StatusBadges(Document* doc, GraphScene* scene, StatusOf statusOf, QObject* parent)
    : QObject(parent), doc_(doc), scene_(scene), statusOf_(std::move(statusOf)) {
  connect(scene, &GraphScene::rebuilt, this, &StatusBadges::refresh);
  if (doc_) connect(doc_, &Document::modelChanged, this, [this] { countedTree_ = nullptr; });
  refresh();
}

void StatusBadges::statusesChanged() {
  countedTree_ = nullptr;
  refresh();
}

void StatusBadges::countBlocks(const layout::BlockTree& tree) {
  blockCounts_.assign(tree.blocks.size(), {});
  // Deepest blocks first, so that each block adds up children already counted.
  std::vector<int> order(tree.blocks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return tree.blocks[a].depth > tree.blocks[b].depth; });
  for (int block : order) {
    const auto& b = tree.blocks[size_t(block)];
    Counts& out = blockCounts_[size_t(block)];
    for (int i : b.nodes) countNode(*tree.nodes[size_t(i)], statusOf_, out, true);
    for (int c : b.childBlocks)
      for (auto it = blockCounts_[size_t(c)].cbegin(); it != blockCounts_[size_t(c)].cend(); ++it)
        out[it.key()] += it.value();
  }
  countedTree_ = &tree;
  countedFirstNode_ = tree.nodes.empty() ? nullptr : tree.nodes.front();
  countedNodes_ = tree.nodes.size();
}

StatusBadges::Counts StatusBadges::countsOn(const QGraphicsItem* item) {
  if (item)
    for (const QGraphicsItem* child : item->childItems())
      if (child->data(kBadgeKey).toBool()) return static_cast<const BadgeItem*>(child)->counts();
  return {};
}

void StatusBadges::refresh() {
  badges_ = 0;
  if (!scene_ || !doc_) return;
  // Old badges first (items() lists them too): collect, then delete.
  QList<QGraphicsItem*> old, owners;
  for (QGraphicsItem* item : scene_->items()) {
    if (item->data(kBadgeKey).toBool())
      old << item;
    else if (item->type() == BlockItem::Type || item->type() == NodeItem::Type)
      owners << item;
  }
  qDeleteAll(old);
  std::vector<QRectF> drawn;
  // Edge labels move off the badges (and back where badges went away).
  const auto keepLabelsOff = qScopeGuard([&] { scene_->keepLabelsOff(drawn); });
  if (!doc_->hasGraph()) return;
  const auto& tree = doc_->currentLevel().layout->tree();
  // The same tree (the address alone could be reused by another level's) with the same statuses: counted already.
  const void* first = tree.nodes.empty() ? nullptr : tree.nodes.front();
  if (countedTree_ != &tree || countedFirstNode_ != first || countedNodes_ != tree.nodes.size() ||
      blockCounts_.size() != tree.blocks.size())
    countBlocks(tree);
  for (QGraphicsItem* item : owners) {
    Counts counts;
    QRectF box;
    if (auto* b = qgraphicsitem_cast<BlockItem*>(item)) {
      if (b->isExpanded()) continue;  // its nodes are on screen with their own halos
      counts = blockCounts_[size_t(b->block())];
      box = b->box();
    } else if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
      if (n->node()->subgraphs().empty()) continue;
      countNode(*n->node(), statusOf_, counts, false);
      box = n->box();
    }
    if (counts.isEmpty()) continue;
    drawn.push_back((new BadgeItem(counts, box, item))->sceneBoundingRect());
    ++badges_;
  }
}

}  // namespace fb::ui
