#include <iomanip>
#include <iostream>
#include <memory>

#include "commands.h"
#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "edit/edit_verb.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/printable.h"

namespace fb::cli {

namespace {

// "A=B" split at the first (or last) '='; UsageError naming the flag when there is none.
std::pair<std::string, std::string> splitPair(const std::string& s, const char* flag, bool atLast) {
  const size_t eq = atLast ? s.rfind('=') : s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(std::string(flag) + " wants " + "NAME=VALUE, not '" + s + "'");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

void printVerbs() {
  const auto& verbs = edit::EditRegistry::instance().all();
  size_t width = 0;
  for (const auto& v : verbs) width = std::max(width, v.name.size());
  for (const auto& v : verbs) {
    std::cout << std::left << std::setw(int(width) + 2) << v.name << v.description << "\n";
    for (const auto& a : v.verb->args())
      std::cout << std::string(width + 4, ' ') << a.name << "=  " << (a.required ? "" : "(optional) ") << a.help
                << "\n";
    if (!v.verb->freeArgPrefix().empty())
      std::cout << std::string(width + 4, ' ') << v.verb->freeArgPrefix() << "NAME=VALUE  (optional) an attribute\n";
  }
}

}  // namespace

// `flowbridge-cli edit MODEL [--script FILE] [flags] -o OUT`: edits replayed all or nothing, checked, written.
void registerEdit(CLI::App& app, Runner& run) {
  struct Opts {
    std::string model, output, script;
    std::vector<std::string> shapes, attrs, renames, removeNodes, addOutputs, extractInputs, extractOutputs;
    bool list = false, printScript = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "edit", "Edit a model by a script and/or flags (all edits or none), check it, and write the result");
  sub->add_option("MODEL", o->model, "model (.onnx)");
  sub->add_option("-o,--output", o->output, "the edited model (.onnx); never the input");
  sub->add_option("--script", o->script, "edit script: one edit per line, 'VERB KEY=VALUE ...' (see --list)");
  sub->add_option("--set-input-shape", o->shapes, "NAME=1,3,224,224: a graph input's shape (names are symbolic dims)");
  sub->add_option("--set-attr", o->attrs, "NODE.ATTR=VALUE: a node's attribute, typed as the attribute is");
  sub->add_option("--rename", o->renames, "OLD=NEW: a value or, if no value has the name, a node");
  sub->add_option("--remove-node", o->removeNodes, "NODE: delete it; its readers read new graph inputs");
  sub->add_option("--add-output", o->addOutputs, "VALUE: make it a graph output");
  sub->add_option("--extract-inputs", o->extractInputs, "with --extract-outputs: the values the new model starts from")
      ->delimiter(',');
  sub->add_option("--extract-outputs", o->extractOutputs, "keep only the subgraph computing these values")
      ->delimiter(',');
  sub->add_flag("--list", o->list, "list the edit verbs with their arguments and exit");
  sub->add_flag("--print-script", o->printScript, "print the edits (script and flags) as script lines");
  sub->footer(
      "Order: the script's edits, then --set-input-shape, --rename, --set-attr, --remove-node, --add-output, "
      "--extract-*. An edit that does not apply (exit 2) or a result that fails the check (exit 2) writes nothing.");
  sub->callback([&run, o] {
    run = [o] {
      if (o->list) {
        printVerbs();
        return int(kOk);
      }
      if (o->model.empty()) throw UsageError("edit: MODEL is required");
      if (o->output.empty() && !o->printScript) throw UsageError("edit: -o/--output is required");
      if (!o->extractInputs.empty() && o->extractOutputs.empty())
        throw UsageError("edit: --extract-inputs needs --extract-outputs");
      currentInput() = o->model;

      std::vector<edit::Edit> edits;
      if (!o->script.empty()) {
        currentStep() = "reading the edit script";
        const std::string text = InputFile::open(o->script).requireAtMost(64u << 20, "edit script").readAll();
        try {
          edits = edit::parseScript(text);
        } catch (const edit::ScriptError& e) {
          throw InputError(o->script, e.what());
        }
      }
      for (const auto& s : o->shapes) {
        auto [name, dims] = splitPair(s, "--set-input-shape", true);
        edits.push_back(edit::Edit{"set-input-shape", {}}.set("name", name).set("shape", dims));
      }
      for (const auto& s : o->renames) {
        auto [from, to] = splitPair(s, "--rename", false);
        edits.push_back(edit::Edit{"rename", {}}.set("from", from).set("to", to));
      }
      for (const auto& s : o->attrs) {
        auto [target, value] = splitPair(s, "--set-attr", false);
        const size_t dot = target.rfind('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == target.size())
          throw UsageError("--set-attr wants NODE.ATTR=VALUE, not '" + s + "'");
        edits.push_back(edit::Edit{"set-attr", {}}
                            .set("node", target.substr(0, dot))
                            .set("name", target.substr(dot + 1))
                            .set("value", value));
      }
      for (const auto& n : o->removeNodes) edits.push_back(edit::Edit{"remove-node", {}}.set("node", n));
      for (const auto& v : o->addOutputs) edits.push_back(edit::Edit{"add-output", {}}.set("value", v));
      if (!o->extractOutputs.empty()) {
        auto join = [](const std::vector<std::string>& v) {
          std::string s;
          for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
          return s;
        };
        edit::Edit e{"extract", {}};
        e.set("outputs", join(o->extractOutputs));
        if (!o->extractInputs.empty()) e.set("inputs", join(o->extractInputs));
        edits.push_back(e);
      }
      if (o->printScript) std::cout << printableLines(edit::formatScript(edits));
      if (o->output.empty()) return int(kOk);
      if (edits.empty()) throw UsageError("edit: no edits (give --script or an edit flag)");

      ensureWritableOutput(o->output, {o->model});
      if (!o->script.empty()) ensureWritableOutput(o->output, {o->script});
      auto model = loadModel(o->model);
      // Edits name ONNX nodes and values, and the result is written as ONNX: a OneFlow graph is converted first.
      if (model->sourceFormat != "onnx")
        throw InputError(o->model, "edit works on ONNX models; convert this " + model->sourceFormat +
                                       " model to ONNX first (flowbridge-cli convert)");
      ensureWritableOutput(o->output, model->sourceFiles);
      const size_t nodesBefore = model->graph().nodeCount();
      currentStep() = "applying the edits";
      std::vector<edit::Applied> applied;
      try {
        applied = edit::applyEdits(*model, edits);
      } catch (const edit::EditError& e) {
        throw InputError(o->model, std::string(e.what()) + "; nothing written");
      }
      for (const auto& a : applied)
        for (const auto& note : a.notes) std::cout << "  " << printable(note) << "\n";
      currentStep() = "checking the edited model";
      const CheckResult check = edit::checkEditedModel(*model);
      if (!check.ok) {
        // One line, as for every exit 2: the first thing the check found names the fault.
        std::string first;
        if (!check.messages.empty()) {
          const auto& msg = check.messages.front();
          first = (msg.node.empty() ? std::string() : msg.node + ": ") + msg.message;
          if (first.size() > 400) first = first.substr(0, 400) + "...";
          first = " (" + first + ")";
        }
        throw InputError(o->model, "the edited model does not pass the check" + first + "; nothing written");
      }
      currentStep() = "writing " + o->output;
      onnxfmt::writeOnnxFile(*model, o->output);
      std::cout << printable(o->model) << ": " << edits.size() << " edits, " << nodesBefore << " -> "
                << model->graph().nodeCount() << " nodes; written to " << printable(o->output) << "\n";
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
