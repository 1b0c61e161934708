; Top-level declarations of a Go file. Capture names are checked at load (see query.ts):
; every capture here must be handled by the extractor, and vice versa.

(package_clause (package_identifier) @package)

(import_spec) @import

(source_file (function_declaration) @definition.function)
(source_file (method_declaration) @definition.method)
(source_file (type_declaration) @definition.type)
(source_file (var_declaration) @definition.var)
(source_file (const_declaration) @definition.const)

(ERROR) @error
(MISSING) @missing
