import MemprofInput
import Yams

/// Text of a YAML (or JSON) input file — a workload, thresholds or budget file — composed with
/// located errors: an empty file and YAML syntax errors name the line and column where they are
/// (bytes that are not UTF-8 and control characters are refused before, by `InputText`).
public enum YAMLText {
    /// Composes `text` into its root node through libyaml's event parser into a ``YAMLTree``,
    /// the one composer of YAML text: workloads (with or without overrides), sweep files,
    /// thresholds and budget files. Its nodes, marks and errors are those of Yams' public
    /// `Yams.compose(yaml:, .basic)`, which alone takes four times the tree's whole read on a large
    /// workload (MemprofRun's Benchmarks article, `scripts/bench-yaml.sh`); `YAMLTreeTests` holds
    /// the two equal.
    /// Text that holds nothing (only blanks or comments) is an error at line 1, column 1.
    package static func composeTree(_ text: String, file: String) throws -> NodeReader {
        let tree: YAMLTree?
        do {
            tree = try YAMLTree.compose(text)
        } catch {
            throw error.located(file: file)
        }
        guard let tree else { throw emptyFile(file) }
        return NodeReader(tree: tree, file: file)
    }

    static func emptyFile(_ file: String) -> WorkloadError {
        WorkloadError(file: file, line: 1, column: 1, keyPath: "", message: "the file is empty (it holds no YAML or JSON value)")
    }
}

/// Why YAML text was refused, in memprof's words and at its place: what ``YAMLTree``'s composer
/// says, in the words and at the marks of Yams' `YamlError` for the same text (the tests make
/// one from the other to compare them).
package struct YAMLProblem: Error {
    package var line: Int
    package var column: Int
    package var message: String

    package static func syntax(problem: String, context: (text: String, line: Int)?, at mark: (line: Int, column: Int)) -> YAMLProblem {
        var message = "invalid YAML: \(problem)"
        if let context { message += " (\(context.text) at line \(context.line))" }
        return YAMLProblem(line: mark.line, column: mark.column, message: message)
    }

    package static func duplicates(_ keys: [String], at mark: (line: Int, column: Int)) -> YAMLProblem {
        YAMLProblem(line: mark.line, column: mark.column,
                    message: "duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", "))")
    }

    package static func reader(problem: String, offset: Int?) -> YAMLProblem {
        YAMLProblem(line: 0, column: 0, message: "unreadable text at byte offset \(offset ?? 0): \(problem)")
    }

    package static func memory() -> YAMLProblem { YAMLProblem(line: 0, column: 0, message: "invalid YAML: \(YamlError.memory)") }

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package func located(file: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: "", message: message)
    }
}
