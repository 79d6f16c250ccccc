package org.jmpi.coarray;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Win;

/**
 * The images that share coarrays: the ranks of a communicator, numbered from 0 (image {@code i} is rank {@code i};
 * Fortran numbers them from 1, jmpi as MPI does). Made collectively by {@link #of}; its synchronisation statements
 * complete the nonblocking puts of every coarray allocated on it.
 *
 * <p>Threading: one thread per image uses a team and its coarrays at a time (as one Fortran image is one thread of
 * control). The team owns a duplicate of the communicator and a window without memory for its barrier, freed by
 * {@link #free()}.
 */
public final class Team
{
    private static final int SYNC_TAG = 1;
    private static final byte[] NOTHING = new byte[0];

    private final Intracomm comm;
    /** A window without memory whose fences are {@link #syncAll}'s barrier (by atomics between threads of one JVM). */
    private final Win sync;
    private final List<Coarray> coarrays = new ArrayList<>();
    private final boolean[] named;

    private Team(final Intracomm comm)
    {
        this.comm = comm;
        this.sync = Win.create(null, 1, null, comm);
        sync.setName("coarray team sync");
        this.named = new boolean[comm.size()];
    }

    /**
     * A team of {@code comm}'s ranks (collective over {@code comm}; the team synchronises on its own duplicate of it).
     *
     * @throws MpiException ERR_COMM for an intercommunicator.
     */
    public static Team of(final Comm comm)
    {
        if (!(comm instanceof Intracomm intra))
        {
            throw new MpiException(ErrorClass.ERR_COMM, "Team.of: images are the ranks of an intracommunicator, not " + comm);
        }
        return new Team(intra.dup());
    }

    /** This image's number, from 0 (Fortran's {@code this_image()} - 1). */
    public int thisImage()
    {
        return comm.rank();
    }

    /** The number of images (Fortran's {@code num_images()}). */
    public int numImages()
    {
        return comm.size();
    }

    /** The team's communicator (a duplicate of the one it was made of), for two-sided code beside the coarrays. */
    public Intracomm comm()
    {
        return comm;
    }

    /**
     * {@code sync all}: completes this image's nonblocking puts to every image, then waits until every image has
     * reached this statement; afterwards every image sees what every other wrote before it.
     */
    public void syncAll()
    {
        completePuts();
        // a fence that closes and opens nothing is a barrier: between threads of one JVM, atomics on the ranks' memory
        sync.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED | Win.MODE_NOSTORE | Win.MODE_NOPUT);
        VarHandle.fullFence();
    }

    /**
     * {@code sync images(list)}: completes this image's nonblocking puts, then waits until each listed image has
     * executed a matching {@code syncImages} naming this image. The list may name this image (ignored); an empty list
     * synchronises with nobody.
     *
     * @throws MpiException ERR_RANK for an image outside [0, numImages()), ERR_ARG for an image listed twice.
     */
    public void syncImages(final int... images)
    {
        java.util.Arrays.fill(named, false);
        for (final int image : images)
        {
            if (image < 0 || image >= numImages())
            {
                throw new MpiException(ErrorClass.ERR_RANK, "syncImages: image " + image + " outside [0, " + numImages() + ")");
            }
            if (named[image])
            {
                throw new MpiException(ErrorClass.ERR_ARG, "syncImages: image " + image + " is listed twice");
            }
            named[image] = true;
        }
        completePuts();
        final int me = thisImage();
        final List<Request> requests = new ArrayList<>(2 * images.length);
        for (final int image : images)
        {
            if (image != me)
            {
                requests.add(comm.isend(NOTHING, 0, 0, Datatype.BYTE, image, SYNC_TAG));
                requests.add(comm.irecv(NOTHING, 0, 0, Datatype.BYTE, image, SYNC_TAG));
            }
        }
        Request.waitAll(requests.toArray(new Request[0]));
        VarHandle.fullFence();
    }

    /** {@code sync all} with every image: {@link #syncAll()}; for Fortran's {@code sync images(*)}. */
    public void syncImagesAll()
    {
        syncAll();
    }

    /**
     * {@code sync memory}: completes this image's nonblocking puts and orders its memory accesses before and after
     * (a full fence). Synchronises with no other image.
     */
    public void syncMemory()
    {
        completePuts();
        VarHandle.fullFence();
    }

    /** Frees the team's communicator (collective). Its coarrays must be closed first. */
    public void free()
    {
        if (!coarrays.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "Team.free: " + coarrays.size() + " coarrays of the team are still open");
        }
        sync.free();
        comm.free();
    }

    private void completePuts()
    {
        for (final Coarray c : coarrays)
        {
            c.completePuts();
        }
    }

    void opened(final Coarray coarray)
    {
        coarrays.add(coarray);
    }

    void closed(final Coarray coarray)
    {
        coarrays.remove(coarray);
    }
}
