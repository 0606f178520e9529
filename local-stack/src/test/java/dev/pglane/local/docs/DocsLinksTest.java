package dev.pglane.local.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link of the README and the guides under {@code docs/} that points into the repository resolves: the file
 * exists, and an anchor names a heading of it (as GitHub makes anchors of headings).
 */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    @Test
    void everyLinkIntoTheRepositoryResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                String problem = problem(page, target);
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (" + problem + ")");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    /** The README and every page under docs/. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    private static List<String> links(Path page) throws IOException {
        List<String> links = new ArrayList<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            if (code) {
                continue;
            }
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                String target = m.group(1);
                if (!target.contains("://") && !target.startsWith("mailto:")) {
                    links.add(target);
                }
            }
        }
        return links;
    }

    private static String problem(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash < 0 || !resolved.toString().endsWith(".md")) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        return anchors(resolved).contains(anchor) ? null : "no heading makes this anchor";
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (code || !m.matches()) {
                continue;
            }
            String slug = m.group(1)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
                    .replace(' ', '-');
            String unique = slug;
            for (int n = 1; !anchors.add(unique); n++) {
                unique = slug + "-" + n;
            }
        }
        return anchors;
    }
}
