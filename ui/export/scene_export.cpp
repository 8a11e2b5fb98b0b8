#include "ui/export/scene_export.h"
#include "ui/background_pool.h"

#include <QBuffer>
#include <QEventLoop>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QPointer>
#include <QSvgGenerator>
#include <QtConcurrent>

#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fb::ui {
namespace {

// QGraphicsItem::data keys of the marks the conversion overlays add (StatusOverlay's halos, StatusBadges) and the
// Problems' outlines.
constexpr int kHaloKey = 0x5a7;
constexpr int kBadgeKey = 0x5a8;
constexpr int kProblemKey = 0x5a9;

// Hides the conversion marks and the selection while the scene is recorded; puts them back after.
class PlainScene {
 public:
  PlainScene(Document* doc, GraphScene* scene, bool plain) : doc_(doc) {
    if (!plain) return;
    for (QGraphicsItem* item : scene->items())
      if ((item->data(kHaloKey).toBool() || item->data(kBadgeKey).toBool() || item->data(kProblemKey).toBool()) &&
          item->isVisible()) {
        item->setVisible(false);
        hidden_.append(item);
      }
    if (doc_ && (!doc_->selectedNodes().isEmpty() || doc_->selectedValue())) {
      nodes_ = doc_->selectedNodes();
      value_ = doc_->selectedValue();
      doc_->clearSelection();
      restore_ = true;
    }
  }
  ~PlainScene() {
    for (QGraphicsItem* item : hidden_) item->setVisible(true);
    if (!restore_) return;
    if (value_)
      doc_->selectValue(value_);
    else
      doc_->selectNodes(nodes_);
  }

 private:
  Document* doc_;
  QList<QGraphicsItem*> hidden_;
  QList<const ir::Node*> nodes_;
  const ir::Value* value_ = nullptr;
  bool restore_ = false;
};

}  // namespace

SceneExporter::SceneExporter(Document* doc, GraphScene* scene, QObject* parent)
    : QObject(parent), doc_(doc), scene_(scene) {
  connect(&watcher_, &QFutureWatcher<QString>::finished, this, [this] {
    running_ = false;
    const QString error = watcher_.result();
    if (error.isEmpty())
      emit finished(path_, QFileInfo(path_).size());
    else
      emit failed(path_, error);
  });
}

SceneExporter::~SceneExporter() {
  if (cancel_) *cancel_ = true;
  watcher_.waitForFinished();
}

void SceneExporter::cancel() {
  if (running_ && cancel_) *cancel_ = true;
}

bool SceneExporter::start(const QString& path, const SceneExportOptions& options) {
  if (running_) {
    emit failed(path, tr("an export is still running"));
    return false;
  }
  const QRectF source = scene_->sceneRect();
  const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
  QString refusal;
  if (source.isEmpty())
    refusal = tr("nothing to export");
  else if (!svg && !path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
    refusal = tr("unknown picture format (use .svg or .png)");
  else {
    try {
      ensureNotOverwritingInput(path.toStdString(), options.protectedInput.toStdString());
    } catch (const std::exception& e) {
      refusal = QString::fromStdString(e.what());
    }
  }
  if (!refusal.isEmpty()) {
    emit failed(path, refusal);
    return false;
  }
  // The only part on the UI thread: the items paint into a recording, not into pixels.
  auto picture = std::make_shared<QPicture>();
  {
    PlainScene plain(doc_, scene_, options.plain);
    QPainter p(picture.get());
    scene_->render(&p, QRectF(QPointF(0, 0), source.size()), source);
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  path_ = path;
  running_ = true;
  QPointer<SceneExporter> self(this);
  auto report = [self](int percent) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, percent] {
          if (self) emit self->progress(percent);
        },
        Qt::QueuedConnection);
  };
  const QSizeF size = source.size();
  const QString title = options.title;
  auto cancel = cancel_;
  watcher_.setFuture(
      QtConcurrent::run(backgroundPool(), [picture, size, path, svg, title, cancel, report]() -> QString {
        try {
          QByteArray bytes;
          QBuffer buffer(&bytes);
          buffer.open(QIODevice::WriteOnly);
          if (svg) {
            QSvgGenerator gen;
            gen.setOutputDevice(&buffer);
            gen.setSize(size.toSize());
            gen.setViewBox(QRectF(QPointF(0, 0), size));
            gen.setTitle(title);
            QPainter p(&gen);
            p.drawPicture(0, 0, *picture);
            p.end();
            report(80);
          } else {
            // Within 16k pixels on the longest side, at most twice the scene's size.
            const double scale = std::min(2.0, 16000.0 / std::max(size.width(), size.height()));
            QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            const int strips = std::clamp(image.height() / 256, 1, 50);
            for (int i = 0; i < strips; ++i) {
              if (*cancel) return QObject::tr("cancelled");
              const int top = image.height() * i / strips, bottom = image.height() * (i + 1) / strips;
              QPainter p(&image);
              p.setRenderHint(QPainter::Antialiasing);
              p.setRenderHint(QPainter::TextAntialiasing);
              p.setClipRect(QRect(0, top, image.width(), bottom - top));
              p.scale(scale, scale);
              p.drawPicture(0, 0, *picture);
              p.end();
              report(5 + 75 * (i + 1) / strips);
            }
            if (!image.save(&buffer, "PNG")) return QObject::tr("cannot encode PNG");
          }
          if (*cancel) return QObject::tr("cancelled");
          AtomicFile out(path.toStdString());
          out.write(bytes.constData(), size_t(bytes.size()));
          out.commit();
          report(100);
          return {};
        } catch (const std::exception& e) {
          return QString::fromStdString(e.what());
        }
      }));
  return true;
}

bool SceneExporter::run(const QString& path, const SceneExportOptions& options, QString* error) {
  QString message;
  bool ok = false;
  QEventLoop loop;
  auto a = connect(this, &SceneExporter::finished, &loop, [&] {
    ok = true;
    loop.quit();
  });
  auto b = connect(this, &SceneExporter::failed, &loop, [&](const QString&, const QString& m) {
    message = m;
    loop.quit();
  });
  if (start(path, options)) loop.exec();
  disconnect(a);
  disconnect(b);
  if (error) *error = message;
  return ok;
}

}  // namespace fb::ui
