#pragma once
// The status table as the user narrows it: by group (what needs attention, real rewrites, trivial conversions,
// kept nodes) and by operator, sortable by any column (status sorts by urgency).
#include <QSortFilterProxyModel>

namespace fb::ui {

class StatusFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  enum class Group { All, NeedsAttention, Rewrites, AttributesOnly, Kept, Warnings };
  explicit StatusFilterModel(QObject* parent = nullptr);

  Group group() const { return group_; }
  void setGroup(Group g);
  // Case-insensitive part of the operator name ("conv" keeps Conv and ConvTranspose); empty keeps all.
  void setOpFilter(const QString& text);
  QString opFilter() const { return op_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  Group group_ = Group::All;
  QString op_;
};

}  // namespace fb::ui
