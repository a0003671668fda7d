// The project layer throws it for a project it cannot read; the CLI throws it for its own arguments.
export { UsageError } from "@sourced/project";
