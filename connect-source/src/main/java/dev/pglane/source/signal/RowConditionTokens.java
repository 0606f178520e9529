package dev.pglane.source.signal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The tokens of a {@link RowCondition}; a character the grammar has no use for is refused where it stands. */
final class RowConditionTokens {
    private static final Set<String> KEYWORDS = Set.of("AND", "OR", "NOT", "IS", "NULL", "IN", "LIKE", "TRUE", "FALSE");

    enum Kind {
        NAME,
        KEYWORD,
        STRING,
        NUMBER,
        OPERATOR,
        SYMBOL,
        END
    }

    /**
     * @param text a column name as the table names it, a keyword in upper case, a string's value (quotes undone), a
     *     number's digits, an operator or a symbol
     * @param position where it starts in the condition, from 0
     */
    record Token(Kind kind, String text, int position) {}

    private final String source;
    private final List<Token> tokens = new ArrayList<>();
    private int at;

    private RowConditionTokens(String source) {
        this.source = source;
    }

    static List<Token> of(String source) {
        RowConditionTokens lexer = new RowConditionTokens(source);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        while (true) {
            while (at < source.length() && Character.isWhitespace(source.charAt(at))) {
                at++;
            }
            if (at == source.length()) {
                tokens.add(new Token(Kind.END, "", at));
                return;
            }
            char c = source.charAt(at);
            int start = at;
            if (c == '\'') {
                tokens.add(new Token(Kind.STRING, quoted('\''), start));
            } else if (c == '"') {
                String name = quoted('"');
                if (name.isEmpty()) {
                    throw refuse(start, "has an empty quoted name");
                }
                tokens.add(new Token(Kind.NAME, name, start));
            } else if (isAsciiLetter(c) || c == '_') {
                word(start);
            } else if (isDigit(c) || (c == '.' && at + 1 < source.length() && isDigit(source.charAt(at + 1)))) {
                tokens.add(new Token(Kind.NUMBER, number(), start));
            } else if ("<>=!".indexOf(c) >= 0) {
                tokens.add(new Token(Kind.OPERATOR, operator(start), start));
            } else if ("(),-+".indexOf(c) >= 0) {
                at++;
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), start));
            } else {
                throw refuse(start, "holds a character the grammar does not use");
            }
        }
    }

    /** A name folds to lower case, as SQL folds an unquoted one; a keyword is one whatever its case. */
    private void word(int start) {
        while (at < source.length()
                && (isAsciiLetter(source.charAt(at)) || isDigit(source.charAt(at)) || source.charAt(at) == '_')) {
            at++;
        }
        String word = source.substring(start, at);
        String upper = word.toUpperCase(Locale.ROOT);
        tokens.add(
                KEYWORDS.contains(upper)
                        ? new Token(Kind.KEYWORD, upper, start)
                        : new Token(Kind.NAME, word.toLowerCase(Locale.ROOT), start));
    }

    /** {@code 'it''s'} or {@code "a ""b"""}: the quote doubled inside, nothing else escaped. */
    private String quoted(char quote) {
        int start = at;
        StringBuilder text = new StringBuilder();
        at++;
        while (true) {
            if (at == source.length()) {
                throw refuse(start, "has a quote that does not end");
            }
            char c = source.charAt(at++);
            if (c == quote) {
                if (at < source.length() && source.charAt(at) == quote) {
                    at++;
                } else {
                    return text.toString();
                }
            } else if (c == '\0') {
                throw refuse(at - 1, "holds a NUL character");
            }
            text.append(c);
        }
    }

    /** Digits, an optional fraction and an optional exponent. */
    private String number() {
        int start = at;
        digits();
        if (at < source.length() && source.charAt(at) == '.') {
            at++;
            digits();
        }
        if (at < source.length() && (source.charAt(at) == 'e' || source.charAt(at) == 'E')) {
            at++;
            if (at < source.length() && (source.charAt(at) == '+' || source.charAt(at) == '-')) {
                at++;
            }
            if (at == source.length() || !isDigit(source.charAt(at))) {
                throw refuse(start, "has a number whose exponent has no digits");
            }
            digits();
        }
        if (at < source.length() && (isAsciiLetter(source.charAt(at)) || source.charAt(at) == '_')) {
            throw refuse(start, "has a number run into a name");
        }
        return source.substring(start, at);
    }

    private void digits() {
        while (at < source.length() && isDigit(source.charAt(at))) {
            at++;
        }
    }

    private String operator(int start) {
        for (String operator : List.of("<>", "<=", ">=", "!=", "=", "<", ">")) {
            if (source.startsWith(operator, start)) {
                at = start + operator.length();
                if (at < source.length() && "<>=!".indexOf(source.charAt(at)) >= 0) {
                    break;
                }
                return operator;
            }
        }
        throw refuse(start, "has an operator other than =, <>, !=, <, <=, > and >=");
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException refuse(int position, String what) {
        return new IllegalArgumentException("a filter's condition " + what + " at character " + (position + 1)
                + "; a condition compares columns with literals, joined by AND, OR and NOT");
    }
}
