#include "compat/fiologparser_hist_args.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "compat/argparse_syntax.h"
#include "compat/python_text.h"

namespace po = boost::program_options;

namespace fiohist {
namespace compat {
namespace {

// The script's long options (argparse accepts any unique prefix of them).
const char* const kLongOptions[] = {"buff_size", "max_latency", "interval", "noweight",
                                    "divisor",   "decimals",    "warn",     "group_nr",
                                    "job-file",  "percentiles", "usbin",    "directions",
                                    "help"};

Status StoreFlhArgs(int argc, const char* const* argv, po::variables_map* vm) {
  po::options_description desc;
  // clang-format off
  desc.add_options()
      ("help,h", "")
      ("buff_size", po::value<std::string>(), "")
      ("max_latency", po::value<std::string>(), "")
      ("interval,i", po::value<std::string>(), "")
      ("noweight", po::bool_switch(), "")
      ("divisor,d", po::value<std::string>(), "")
      ("decimals", po::value<std::string>(), "")
      ("warn", po::bool_switch(), "")
      ("group_nr", po::value<std::string>(), "")
      ("job-file", po::value<std::string>(), "")
      ("percentiles", po::value<std::string>(), "")
      ("usbin", po::bool_switch(), "")
      ("directions", po::value<std::string>(), "")
      ("FILE", po::value<std::vector<std::string>>(), "");
  // clang-format on
  return ParseArgparseSyntax(argc, argv, desc, "FILE", vm);
}

Status IntArg(const po::variables_map& vm, const char* name, int64_t* value) {
  if (!vm.count(name)) return Status();
  const std::string text = vm[name].as<std::string>();
  if (!ParsePythonInt(text, value)) {
    return Status::Error(std::string("argument --") + name + ": invalid int value: '" + text + "'");
  }
  return Status();
}

// --percentiles: split at ',' and ':' (re.split('[,:]')), each part a float.
Status ReadPercentiles(const std::string& text, FlhOptions* options) {
  options->percentile_texts.clear();
  options->percentiles.assign(1, 50.0);
  size_t begin = 0;
  for (;;) {
    const size_t end = text.find_first_of(",:", begin);
    const std::string part = text.substr(begin, end == std::string::npos ? end : end - begin);
    double p = 0;
    if (!ParsePythonFloat(part, &p) || !std::isfinite(p)) {
      return Status::Error("argument --percentiles: '" + part + "' in '" + text +
                           "' is not a number (percentiles are separated by ',' or ':')");
    }
    options->percentile_texts.push_back(part);
    options->percentiles.push_back(p);
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return Status();
}

// The values the script would crash on or loop forever with are refused here.
Status CheckValues(const FlhOptions& o) {
  if (o.buff_size < 1) {
    return Status::Error("argument --buff_size: expected at least 1 (pandas' chunksize), got " +
                         std::to_string(o.buff_size));
  }
  if (o.divisor == 0) return Status::Error("argument --divisor: 0 would divide by zero");
  if (!std::isfinite(o.max_latency_s)) {
    return Status::Error("argument --max_latency: expected a finite number of seconds");
  }
  return Status();
}

}  // namespace

bool IsFlhOption(const std::string& name) {
  int matches = 0;
  for (const char* o : kLongOptions) {
    const std::string full = o;
    if (full == name) return true;
    if (!name.empty() && full.compare(0, name.size(), name) == 0) ++matches;
  }
  return matches == 1;
}

Status ParseFlhArgs(int argc, const char* const* argv, FlhOptions* options) {
  *options = FlhOptions();
  po::variables_map vm;
  Status s = StoreFlhArgs(argc, argv, &vm);
  if (!s.ok()) return s;
  if (vm.count("help")) {
    options->help = true;
    return Status();
  }
  if (!vm.count("FILE")) {
    return Status::Error("the following arguments are required: FILE (the log files)");
  }
  options->files = vm["FILE"].as<std::vector<std::string>>();
  options->noweight = vm["noweight"].as<bool>();
  options->warn = vm["warn"].as<bool>();
  options->usbin = vm["usbin"].as<bool>();
  if (vm.count("max_latency")) {
    const std::string text = vm["max_latency"].as<std::string>();
    if (!ParsePythonFloat(text, &options->max_latency_s)) {
      return Status::Error("argument --max_latency: invalid float value: '" + text + "'");
    }
  }
  int64_t decimals = options->decimals;
  for (auto [name, value] : {std::pair<const char*, int64_t*>{"buff_size", &options->buff_size},
                             {"interval", &options->interval_ms},
                             {"divisor", &options->divisor},
                             {"decimals", &decimals},
                             {"group_nr", &options->group_nr}}) {
    s = IntArg(vm, name, value);
    if (!s.ok()) return s;
  }
  if (vm.count("interval") && options->interval_ms <= 0) {
    return Status::Error("argument --interval: expected a positive number of ms, got " +
                         vm["interval"].as<std::string>());
  }
  if (decimals < 0 || decimals > 100) {
    return Status::Error("argument --decimals: expected 0 to 100, got " + std::to_string(decimals));
  }
  options->decimals = static_cast<int>(decimals);
  if (vm.count("job-file")) options->job_file = vm["job-file"].as<std::string>();
  if (vm.count("percentiles")) {
    s = ReadPercentiles(vm["percentiles"].as<std::string>(), options);
    if (!s.ok()) return s;
  }
  if (vm.count("directions")) {
    options->directions = vm["directions"].as<std::string>();
    for (char& c : options->directions) c = static_cast<char>(std::tolower(c));
  }
  return CheckValues(*options);
}

namespace {

// One section of a configparser file: option -> value (nullopt: a key without a value).
struct IniSection {
  std::map<std::string, std::optional<std::string>> values;
};

std::string Strip(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\f\v\n");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\f\v\n");
  return s.substr(b, e - b + 1);
}

// configparser's BasicInterpolation for a value that names no other option: "%%" is "%",
// any other '%' is an error (the script would raise InterpolationSyntaxError).
bool Interpolate(const std::string& in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      *out += in[i];
    } else if (i + 1 < in.size() && in[i + 1] == '%') {
      *out += '%';
      ++i;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

Status ResolveInterval(FlhOptions* options) {
  if (!options->job_file.empty()) {
    std::ifstream in(options->job_file);
    if (!in) return Status::InputError(options->job_file, 0, "cannot open the job file");
    // Python's configparser (3.11, strict, allow_no_value) as the script uses it.
    std::vector<std::pair<std::string, IniSection>> sections;
    IniSection defaults;
    IniSection* current = nullptr;
    std::set<std::string> seen_sections;
    std::string option;  // last option, for continuation lines
    size_t indent = 0;
    std::string line;
    long long n = 0;
    while (std::getline(in, line)) {
      ++n;
      const std::string value = Strip(line);
      if (value.empty() || value[0] == '#' || value[0] == ';') {
        if (value.empty()) option.clear();  // an empty line ends a value
        continue;
      }
      const size_t level = line.find_first_not_of(" \t");
      if (current != nullptr && !option.empty() && level > indent) {
        auto& v = current->values[option];
        v = v.value_or("") + "\n" + value;
        continue;
      }
      indent = level;
      if (value.front() == '[' && value.back() == ']' && value.size() > 2) {
        const std::string name = value.substr(1, value.size() - 2);
        if (!seen_sections.insert(name).second) {
          return Status::InputError(options->job_file, n,
                                    "section '" + name + "' already exists (configparser)");
        }
        if (name == "DEFAULT") {
          current = &defaults;
        } else {
          sections.emplace_back(name, IniSection());
          current = &sections.back().second;
        }
        option.clear();
        continue;
      }
      if (current == nullptr) {
        return Status::InputError(options->job_file, n,
                                  "a line before any [section] header (configparser)");
      }
      const size_t sep = value.find_first_of("=:");
      std::string key = Strip(value.substr(0, sep));
      for (char& c : key) c = static_cast<char>(std::tolower(c));
      if (key.empty()) {
        return Status::InputError(options->job_file, n, "an option without a name (configparser)");
      }
      if (current->values.count(key)) {
        return Status::InputError(options->job_file, n,
                                  "option '" + key + "' already exists in its section (configparser)");
      }
      if (sep == std::string::npos) {
        current->values[key] = std::nullopt;
      } else {
        current->values[key] = Strip(value.substr(sep + 1));
      }
      option = key;
    }
    // The last section naming log_hist_msec (directly or through [DEFAULT]) wins.
    if (options->interval_ms == 0) {
      for (auto& [name, section] : sections) {
        std::optional<std::string> raw;
        auto it = section.values.find("log_hist_msec");
        if (it != section.values.end()) {
          raw = it->second;
        } else {
          auto d = defaults.values.find("log_hist_msec");
          if (d == defaults.values.end()) continue;
          raw = d->second;
        }
        if (!raw) continue;
        std::string text;
        int64_t v = 0;
        if (!Interpolate(*raw, &text) || !ParsePythonInt(text, &v)) {
          return Status::InputError(options->job_file, 0,
                                    "log_hist_msec of section [" + name + "] is '" + *raw +
                                        "', not a whole number of ms");
        }
        if (v <= 0) {
          return Status::InputError(options->job_file, 0,
                                    "log_hist_msec of section [" + name +
                                        "] must be positive to be an interval, got " + text);
        }
        options->interval_ms = v;
      }
    }
  }
  if (options->interval_ms == 0) options->interval_ms = 1000;
  return Status();
}

}  // namespace compat
}  // namespace fiohist
