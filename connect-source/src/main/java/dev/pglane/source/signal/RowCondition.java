package dev.pglane.source.signal;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The condition of a signal's {@code additional-conditions}, parsed: pglane never runs a signal writer's text, only
 * the SQL it writes itself from what this grammar admits.
 *
 * <pre>
 * condition  := and ( OR and )*
 * and        := factor ( AND factor )*
 * factor     := NOT factor | '(' condition ')' | column test
 * test       := op literal | IS [NOT] NULL | [NOT] IN '(' literal ( ',' literal )* ')' | [NOT] LIKE string
 * op         := '=' | '&lt;&gt;' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;='
 * literal    := string | ['-' | '+'] number | TRUE | FALSE
 * column     := name (folded to lower case, as SQL folds it) | "quoted name" ("" for a quote)
 * </pre>
 *
 * <p>Keywords are case-insensitive; a string is {@code '...'} with {@code ''} for a quote, and nothing else escaped.
 * No function, operator, cast, subquery, column-to-column comparison or expression is admitted: a column is compared
 * with constants only, so the condition can tell no more than which of the table's rows it selects, and the runner
 * admits only columns the publication publishes (so it cannot sort rows by a column that never leaves the source).
 * The SQL written from it ({@link #toSql}) quotes each column as an identifier and each literal as a string constant
 * of unknown type, which the server types as the column it is compared with; the literal's text is never SQL.
 */
public final class RowCondition {
    /** Longer conditions are refused: a signal is a request, not a program. */
    static final int MAX_LENGTH = 4096;
    /** Deeper nesting of parentheses and NOT is refused, so parsing cannot exhaust the stack. */
    static final int MAX_DEPTH = 32;

    /** How the SQL of a condition quotes what it holds; the chunk queries' connection does both. */
    public interface Quoting {
        /** A column name as a quoted identifier. */
        String identifier(String name) throws SQLException;

        /** A literal's text as a quoted string constant. */
        String literal(String value) throws SQLException;
    }

    private sealed interface Node permits Any, All, Not, Test {}

    private record Any(List<Node> terms) implements Node {}

    private record All(List<Node> factors) implements Node {}

    private record Not(Node operand) implements Node {}

    /** {@code column <sql> literals}: {@code sql} is one of pglane's own operator texts, never the writer's. */
    private record Test(String column, String sql, List<String> literals) implements Node {}

    private final String text;
    private final Node root;

    private RowCondition(String text, Node root) {
        this.text = text;
        this.root = root;
    }

    /**
     * @throws IllegalArgumentException naming what the grammar does not admit, and where; it quotes only the
     *     writer's own text
     */
    public static RowCondition parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a filter's condition is empty");
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a filter's condition is longer than " + MAX_LENGTH + " characters");
        }
        Parser parser = new Parser(RowConditionTokens.of(text));
        Node root = parser.condition(0);
        parser.expectEnd();
        return new RowCondition(text, root);
    }

    /** The condition as the signal gave it, for the progress in the offsets, which parses it again. */
    public String text() {
        return text;
    }

    /** The columns it names, as the table names them. */
    public Set<String> columns() {
        Set<String> columns = new LinkedHashSet<>();
        collect(root, columns);
        return columns;
    }

    /** The condition as SQL, in parentheses. */
    public String toSql(Quoting quoting) throws SQLException {
        StringBuilder sql = new StringBuilder();
        write(root, quoting, sql);
        return sql.toString();
    }

    private static void collect(Node node, Set<String> columns) {
        if (node instanceof Any any) {
            any.terms().forEach(t -> collect(t, columns));
        } else if (node instanceof All all) {
            all.factors().forEach(f -> collect(f, columns));
        } else if (node instanceof Not not) {
            collect(not.operand(), columns);
        } else {
            columns.add(((Test) node).column());
        }
    }

    private static void write(Node node, Quoting quoting, StringBuilder sql) throws SQLException {
        if (node instanceof Any any) {
            join(any.terms(), " OR ", quoting, sql);
        } else if (node instanceof All all) {
            join(all.factors(), " AND ", quoting, sql);
        } else if (node instanceof Not not) {
            sql.append("(NOT ");
            write(not.operand(), quoting, sql);
            sql.append(')');
        } else {
            Test test = (Test) node;
            sql.append('(')
                    .append(quoting.identifier(test.column()))
                    .append(' ')
                    .append(test.sql());
            if (test.sql().endsWith("IN")) {
                sql.append(" (");
                for (int i = 0; i < test.literals().size(); i++) {
                    sql.append(i == 0 ? "" : ", ")
                            .append(quoting.literal(test.literals().get(i)));
                }
                sql.append(')');
            } else if (!test.literals().isEmpty()) {
                sql.append(' ').append(quoting.literal(test.literals().get(0)));
            }
            sql.append(')');
        }
    }

    private static void join(List<Node> nodes, String operator, Quoting quoting, StringBuilder sql)
            throws SQLException {
        sql.append('(');
        for (int i = 0; i < nodes.size(); i++) {
            sql.append(i == 0 ? "" : operator);
            write(nodes.get(i), quoting, sql);
        }
        sql.append(')');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RowCondition that && text.equals(that.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** Recursive descent over the tokens; each method names what it expected when it refuses. */
    private static final class Parser {
        private final List<RowConditionTokens.Token> tokens;
        private int next;

        Parser(List<RowConditionTokens.Token> tokens) {
            this.tokens = tokens;
        }

        Node condition(int depth) {
            if (depth > MAX_DEPTH) {
                throw refuse("nests deeper than " + MAX_DEPTH + " levels");
            }
            List<Node> terms = new ArrayList<>();
            terms.add(and(depth));
            while (keyword("OR")) {
                terms.add(and(depth));
            }
            return terms.size() == 1 ? terms.get(0) : new Any(terms);
        }

        private Node and(int depth) {
            List<Node> factors = new ArrayList<>();
            factors.add(factor(depth));
            while (keyword("AND")) {
                factors.add(factor(depth));
            }
            return factors.size() == 1 ? factors.get(0) : new All(factors);
        }

        private Node factor(int depth) {
            if (keyword("NOT")) {
                if (depth + 1 > MAX_DEPTH) {
                    throw refuse("nests deeper than " + MAX_DEPTH + " levels");
                }
                return new Not(factor(depth + 1));
            }
            if (symbol("(")) {
                Node inner = condition(depth + 1);
                expectSymbol(")");
                return inner;
            }
            return test(column());
        }

        private String column() {
            RowConditionTokens.Token token = peek();
            if (token.kind() != RowConditionTokens.Kind.NAME) {
                throw refuse("expects a column name");
            }
            next++;
            return token.text();
        }

        private Node test(String column) {
            RowConditionTokens.Token token = peek();
            if (token.kind() == RowConditionTokens.Kind.OPERATOR) {
                next++;
                String operator = token.text().equals("!=") ? "<>" : token.text();
                return new Test(column, operator, List.of(literal()));
            }
            if (keyword("IS")) {
                boolean not = keyword("NOT");
                expectKeyword("NULL");
                return new Test(column, not ? "IS NOT NULL" : "IS NULL", List.of());
            }
            boolean not = keyword("NOT");
            if (keyword("IN")) {
                expectSymbol("(");
                List<String> values = new ArrayList<>();
                do {
                    values.add(literal());
                } while (symbol(","));
                expectSymbol(")");
                return new Test(column, not ? "NOT IN" : "IN", values);
            }
            if (keyword("LIKE")) {
                RowConditionTokens.Token pattern = peek();
                if (pattern.kind() != RowConditionTokens.Kind.STRING) {
                    throw refuse("expects a string pattern after LIKE");
                }
                next++;
                return new Test(column, not ? "NOT LIKE" : "LIKE", List.of(pattern.text()));
            }
            throw refuse("expects a comparison (=, <>, <, <=, >, >=, IS [NOT] NULL, [NOT] IN, [NOT] LIKE) after"
                    + " column " + column);
        }

        private String literal() {
            RowConditionTokens.Token token = peek();
            String sign = "";
            if (token.kind() == RowConditionTokens.Kind.SYMBOL
                    && (token.text().equals("-") || token.text().equals("+"))) {
                sign = token.text().equals("-") ? "-" : "";
                next++;
                token = peek();
                if (token.kind() != RowConditionTokens.Kind.NUMBER) {
                    throw refuse("expects a number after a sign");
                }
            }
            switch (token.kind()) {
                case STRING, NUMBER -> {
                    next++;
                    return sign + token.text();
                }
                case KEYWORD -> {
                    if (token.text().equals("TRUE") || token.text().equals("FALSE")) {
                        next++;
                        return token.text().toLowerCase(Locale.ROOT);
                    }
                }
                default -> {}
            }
            throw refuse("expects a literal (a 'string', a number, TRUE or FALSE)");
        }

        void expectEnd() {
            if (peek().kind() != RowConditionTokens.Kind.END) {
                throw refuse("expects AND, OR or the end");
            }
        }

        private boolean keyword(String word) {
            RowConditionTokens.Token token = peek();
            if (token.kind() == RowConditionTokens.Kind.KEYWORD && token.text().equals(word)) {
                next++;
                return true;
            }
            return false;
        }

        private void expectKeyword(String word) {
            if (!keyword(word)) {
                throw refuse("expects " + word);
            }
        }

        private boolean symbol(String text) {
            RowConditionTokens.Token token = peek();
            if (token.kind() == RowConditionTokens.Kind.SYMBOL && token.text().equals(text)) {
                next++;
                return true;
            }
            return false;
        }

        private void expectSymbol(String text) {
            if (!symbol(text)) {
                throw refuse("expects '" + text + "'");
            }
        }

        private RowConditionTokens.Token peek() {
            return tokens.get(next);
        }

        private IllegalArgumentException refuse(String what) {
            RowConditionTokens.Token at = peek();
            return new IllegalArgumentException("a filter's condition " + what + " at character " + (at.position() + 1)
                    + (at.kind() == RowConditionTokens.Kind.END ? " (its end)" : "")
                    + "; a condition compares columns with literals, joined by AND, OR and NOT");
        }
    }
}
