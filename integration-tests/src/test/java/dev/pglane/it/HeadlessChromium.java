package dev.pglane.it;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Debian's Chromium, headless, for the ITs that look at a page the way a reader's browser draws it. Installed with apt
 * on first use (the tests run as root). Each call is a browser of its own with a fresh profile, its background
 * networking off: on a closed network its connections would otherwise be refused many at a time.
 */
final class HeadlessChromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

    private HeadlessChromium() {}

    /** Installs Debian's {@code chromium} package unless {@link #BINARY} is there. */
    static void ensureInstalled() throws IOException, InterruptedException {
        DebianPackage.ensure("chromium", BINARY);
    }

    /** The document after Chromium parsed {@code page}, serialized as HTML. */
    static String dumpDom(Path page) throws IOException, InterruptedException {
        Result result = browse(page, List.of("--dump-dom"));
        return result.output();
    }

    /** What Chromium draws of {@code page} in a window of {@code width} × {@code height} CSS pixels, one pixel each. */
    static BufferedImage screenshot(Path page, int width, int height) throws IOException, InterruptedException {
        Path png = Files.createTempFile("pglane-chromium-", ".png");
        try {
            browse(
                    page,
                    List.of(
                            "--screenshot=" + png,
                            "--window-size=" + width + "," + height,
                            "--force-device-scale-factor=1",
                            "--hide-scrollbars"));
            BufferedImage image = ImageIO.read(png.toFile());
            if (image == null) {
                throw new IllegalStateException("Chromium wrote no PNG for " + page);
            }
            return image;
        } finally {
            Files.deleteIfExists(png);
        }
    }

    private static Result browse(Path page, List<String> action) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("pglane-chromium-profile-");
        try {
            List<String> command = new ArrayList<>(List.of(
                    BINARY.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--user-data-dir=" + profile));
            command.addAll(action);
            command.add(page.toUri().toString());
            Result result = run(command, RUN_TIMEOUT);
            if (result.exit() != 0) {
                throw new IllegalStateException("chromium exited with " + result.exit() + ":\n" + result.errors());
            }
            return result;
        } finally {
            try (Stream<Path> paths = Files.walk(profile)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    /** @param output standard output; {@code errors} standard error */
    private record Result(int exit, String output, String errors) {}

    private static Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile("pglane-chromium-", ".out");
        Path err = Files.createTempFile("pglane-chromium-", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(command.get(0) + " did not finish within " + timeout.toSeconds()
                        + " s:\n" + Files.readString(err));
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
