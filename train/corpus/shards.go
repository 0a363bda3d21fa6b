package corpus

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// A token shard is a compact binary file of token ids: a 32-byte header, then the ids
// of every trajectory of a split, one after the other, little-endian. Each trajectory
// starts with <|trace_context_start|>, which is how a reader finds the boundaries.
//
//	offset  size  field
//	0       8     magic "NDBTOKS1"
//	8       4     header version (1)
//	12      4     vocabulary size
//	16      4     bytes per token id (2 when the vocabulary fits in 16 bits, else 4)
//	20      4     number of trajectories
//	24      8     number of token ids
const (
	shardMagic      = "NDBTOKS1"
	shardHeaderSize = 32
	shardVersion    = 1
)

// ShardHeader describes a token shard.
type ShardHeader struct {
	VocabSize    int
	TokenBytes   int
	Trajectories int
	Tokens       int64
}

// ShardWriter writes a token shard.
type ShardWriter struct {
	f   *os.File
	w   *bufio.Writer
	h   ShardHeader
	buf []byte
}

// CreateShard starts a shard for a vocabulary of vocabSize ids.
func CreateShard(path string, vocabSize int) (*ShardWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	tb := 2
	if vocabSize > 1<<16 {
		tb = 4
	}
	sw := &ShardWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), h: ShardHeader{VocabSize: vocabSize, TokenBytes: tb}}
	if _, err := sw.w.Write(make([]byte, shardHeaderSize)); err != nil {
		f.Close()
		return nil, err
	}
	return sw, nil
}

// Append writes the ids of one trajectory.
func (s *ShardWriter) Append(ids []int) error {
	s.buf = s.buf[:0]
	for _, id := range ids {
		if id < 0 || id >= s.h.VocabSize {
			return fmt.Errorf("token id %d outside the vocabulary of %d", id, s.h.VocabSize)
		}
		if s.h.TokenBytes == 2 {
			s.buf = binary.LittleEndian.AppendUint16(s.buf, uint16(id))
		} else {
			s.buf = binary.LittleEndian.AppendUint32(s.buf, uint32(id))
		}
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	s.h.Trajectories++
	s.h.Tokens += int64(len(ids))
	return nil
}

// Close writes the header and closes the file.
func (s *ShardWriter) Close() error {
	if err := s.w.Flush(); err != nil {
		s.f.Close()
		return err
	}
	if _, err := s.f.WriteAt(shardHeaderBytes(s.h), 0); err != nil {
		s.f.Close()
		return err
	}
	return s.f.Close()
}

// shardHeaderBytes is the 32-byte header of a shard.
func shardHeaderBytes(h ShardHeader) []byte {
	hdr := make([]byte, shardHeaderSize)
	copy(hdr, shardMagic)
	binary.LittleEndian.PutUint32(hdr[8:], shardVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(h.VocabSize))
	binary.LittleEndian.PutUint32(hdr[16:], uint32(h.TokenBytes))
	binary.LittleEndian.PutUint32(hdr[20:], uint32(h.Trajectories))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(h.Tokens))
	return hdr
}

// ReadShardHeader reads and checks a shard's header.
func ReadShardHeader(r io.Reader) (ShardHeader, error) {
	hdr := make([]byte, shardHeaderSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return ShardHeader{}, fmt.Errorf("token shard header: %w", err)
	}
	if string(hdr[:8]) != shardMagic {
		return ShardHeader{}, errors.New("not a token shard (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(hdr[8:]); v != shardVersion {
		return ShardHeader{}, fmt.Errorf("token shard version %d, want %d", v, shardVersion)
	}
	h := ShardHeader{
		VocabSize:    int(binary.LittleEndian.Uint32(hdr[12:])),
		TokenBytes:   int(binary.LittleEndian.Uint32(hdr[16:])),
		Trajectories: int(binary.LittleEndian.Uint32(hdr[20:])),
		Tokens:       int64(binary.LittleEndian.Uint64(hdr[24:])),
	}
	if h.TokenBytes != 2 && h.TokenBytes != 4 {
		return ShardHeader{}, fmt.Errorf("token shard: %d bytes per token", h.TokenBytes)
	}
	return h, nil
}

// ReadShard reads a whole shard into memory.
func ReadShard(path string) (ShardHeader, []int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return ShardHeader{}, nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	h, err := ReadShardHeader(r)
	if err != nil {
		return h, nil, fmt.Errorf("%s: %w", path, err)
	}
	ids := make([]int32, h.Tokens)
	buf := make([]byte, h.TokenBytes*4096)
	for i := int64(0); i < h.Tokens; {
		n := min(int64(4096), h.Tokens-i)
		if _, err := io.ReadFull(r, buf[:n*int64(h.TokenBytes)]); err != nil {
			return h, nil, fmt.Errorf("%s: %w", path, err)
		}
		for k := int64(0); k < n; k++ {
			if h.TokenBytes == 2 {
				ids[i+k] = int32(binary.LittleEndian.Uint16(buf[2*k:]))
			} else {
				ids[i+k] = int32(binary.LittleEndian.Uint32(buf[4*k:]))
			}
		}
		i += n
	}
	return h, ids, nil
}
