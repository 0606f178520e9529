package dev.pglane.local.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every message {@code docs/troubleshooting.md} quotes is one the code really logs or throws.
 *
 * <p>The page's format: a quote is a code span (text between single backticks) on a line that starts with
 * {@code "> "}, e.g. {@code > `has a stored offset at end LSN`}; every code span of such a line is a quote, and no other
 * line of the page holds one. A quote is a literal run of one Java string literal as the source writes it (escapes
 * included), at least {@value #MIN_LENGTH} characters long: a message assembled with {@code +} or {@code {}}
 * placeholders is quoted by one of its pieces. Each quote must occur in a string literal of some
 * {@code src/main/java/**}{@code /*.java} file of the modules that write messages (comments do not count: a phrase of a
 * Javadoc is no message), and the page must hold at least {@value #MIN_QUOTES} quotes, so that a page whose quotes the
 * test no longer finds cannot pass.
 */
class DocsMessagesTest {
    static final String PAGE = "troubleshooting.md";
    static final List<String> MODULES = List.of("common-wire", "connect-common", "connect-source", "connect-sink");
    static final int MIN_QUOTES = 20;
    static final int MIN_LENGTH = 20;

    private static final Pattern QUOTE_LINE = Pattern.compile("^> ");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    @Test
    void everyQuotedMessageIsInTheCode() throws IOException {
        String code = mainStringLiterals();
        List<String> missing = quotes().stream()
                .filter(quote -> !code.contains(quote))
                .map(quote -> "`" + quote + "`")
                .toList();
        assertEquals(
                List.of(),
                missing,
                "docs/" + PAGE + " quotes messages that no string literal of src/main/java in " + MODULES + " holds");
    }

    @Test
    void thePageQuotesEnoughMessages() throws IOException {
        List<String> quotes = quotes();
        assertTrue(
                quotes.size() >= MIN_QUOTES,
                "docs/" + PAGE + " has " + quotes.size() + " quotes (lines starting with \"> \" holding a code span);"
                        + " at least " + MIN_QUOTES + " expected");
    }

    @Test
    void everyQuoteIsLongEnoughToMeanSomething() throws IOException {
        List<String> tooShort = quotes().stream()
                .filter(quote -> quote.length() < MIN_LENGTH)
                .map(quote -> "`" + quote + "`")
                .toList();
        assertEquals(List.of(), tooShort, "quotes shorter than " + MIN_LENGTH + " characters");
    }

    @Test
    void stringLiteralsAreReadAsJavaWritesThem() {
        String source = "// a \"comment\" line\n/* \"block\" */ char q = '\"'; String s = \"one \\\"two\\\"\" + x\n"
                + "    + \"three\"; String t = \"\"\"\n  block \"quoted\"\n  \"\"\";";
        assertEquals(List.of("one \\\"two\\\"", "three", "\n  block \"quoted\"\n  "), stringLiterals(source));
    }

    /** The quotes of the page, in its order. */
    static List<String> quotes() throws IOException {
        List<String> quotes = new ArrayList<>();
        boolean code = false;
        for (String line : Files.readAllLines(page())) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            if (code || !QUOTE_LINE.matcher(line).find()) {
                continue;
            }
            Matcher m = CODE_SPAN.matcher(line);
            while (m.find()) {
                quotes.add(m.group(1));
            }
        }
        return quotes;
    }

    /** The page, found among the guides the other docs tests read. */
    private static Path page() throws IOException {
        return DocsLinksTest.pages().stream()
                .filter(p -> p.getFileName().toString().equals(PAGE))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/" + PAGE + " is missing"));
    }

    /** The string literals of every main Java source of {@link #MODULES} as written, one after the other. */
    private static String mainStringLiterals() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String module : MODULES) {
            Path sources = Path.of("..", module, "src", "main", "java");
            assertTrue(
                    Files.isDirectory(sources), () -> sources.toAbsolutePath().normalize() + " is missing");
            try (Stream<Path> walk = Files.walk(sources)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
            }
        }
        assertTrue(files.size() > MODULES.size(), () -> "only " + files.size() + " main Java sources found");
        return files.stream()
                .map(DocsMessagesTest::read)
                .flatMap(source -> stringLiterals(source).stream())
                .collect(Collectors.joining("\u0000"));
    }

    /**
     * The contents of the string literals and text blocks of a Java source, as written (escapes not undone), skipping
     * comments and character literals.
     */
    static List<String> stringLiterals(String source) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = closing(source, i + 3, "\"\"\"");
                literals.add(source.substring(i + 3, end));
                i = end + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                String delimiter = String.valueOf(source.charAt(i));
                int end = closing(source, i + 1, delimiter);
                if (delimiter.equals("\"")) {
                    literals.add(source.substring(i + 1, end));
                }
                i = end + 1;
            } else {
                i++;
            }
        }
        return literals;
    }

    /** Where {@code delimiter} closes a literal that starts at {@code from}; a backslash escapes the next character. */
    private static int closing(String source, int from, String delimiter) {
        int i = from;
        while (i < source.length() && !source.startsWith(delimiter, i)) {
            i += source.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i, source.length());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
