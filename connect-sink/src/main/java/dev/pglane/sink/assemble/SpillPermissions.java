package dev.pglane.sink.assemble;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps spill files, which hold row data, to the user the worker runs as. A connector's spill directory is created
 * 0700, and before it is used it must be a directory, not a symbolic link, owned by that user, inside a directory
 * that no other user can replace it in (owned by that user or root, and writable by others only with the sticky bit,
 * as {@code /tmp} is); an existing one with wider permissions is narrowed to 0700. Runs' directories are 0700, lock
 * and spill files 0600. On a file system without POSIX permissions only the symbolic-link check applies.
 */
final class SpillPermissions {
    private static final Logger log = LoggerFactory.getLogger(SpillPermissions.class);
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private SpillPermissions() {}

    /** Attributes for a new directory of the owner alone; none where permissions are not POSIX. */
    static FileAttribute<?>[] directoryMode() {
        return POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
    }

    /** Attributes for a new file of the owner alone; none where permissions are not POSIX. */
    static FileAttribute<?>[] fileMode() {
        return POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)}
                : new FileAttribute<?>[0];
    }

    /**
     * Creates {@code directory} (and missing parents) 0700 unless it exists, then checks it and its parent as the
     * class comment says.
     *
     * @return {@code directory}, a private directory of this user
     * @throws IOException naming the directory and what is wrong with it
     */
    static Path privateDirectory(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            Path parent = absolute.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, directoryMode());
            }
            try {
                Files.createDirectory(absolute, directoryMode());
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another task of the worker created it since: checked below like any existing one
            }
        }
        if (Files.isSymbolicLink(absolute) || !Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("the spill directory " + absolute + " is not a directory but a symbolic link or a"
                    + " file: refused, since whoever placed it could read or delete through it");
        }
        if (POSIX) {
            UserPrincipal me = currentUser(absolute);
            checkParent(absolute.getParent(), me);
            PosixFileAttributes attributes =
                    Files.readAttributes(absolute, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.owner().equals(me)) {
                throw new IOException("the spill directory " + absolute + " belongs to "
                        + attributes.owner().getName()
                        + ", not to " + me.getName() + ", the user this worker runs as: refused, since its owner could"
                        + " read the row data spilled there; remove it or set spill.directory");
            }
            if (!attributes.permissions().equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(absolute, OWNER_ONLY);
                log.info(
                        "Narrowed the spill directory {} from {} to rwx------",
                        absolute,
                        PosixFilePermissions.toString(attributes.permissions()));
            }
        }
        return absolute;
    }

    /** Refuses a parent in which another user could rename the directory away and put something in its place. */
    private static void checkParent(Path parent, UserPrincipal me) throws IOException {
        if (parent == null) {
            return;
        }
        PosixFileAttributes attributes = Files.readAttributes(parent, PosixFileAttributes.class);
        Set<PosixFilePermission> permissions = attributes.permissions();
        boolean othersWrite = permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE);
        String owner = attributes.owner().getName();
        if (!attributes.owner().equals(me) && !owner.equals("root")) {
            throw new IOException("the spill directory's parent " + parent + " belongs to " + owner + ", who could"
                    + " replace the spill directory: set spill.directory to a directory of " + me.getName());
        }
        if (othersWrite && !sticky(parent)) {
            throw new IOException("the spill directory's parent " + parent + " is writable by other users without"
                    + " the sticky bit, so they could replace the spill directory: set spill.directory elsewhere");
        }
    }

    private static boolean sticky(Path directory) throws IOException {
        Object mode = Files.getAttribute(directory, "unix:mode");
        return mode instanceof Integer m && (m & 01000) != 0;
    }

    private static UserPrincipal currentUser(Path anywhere) throws IOException {
        return anywhere.getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
    }
}
