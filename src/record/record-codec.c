/*
 * The parts of the recording format both sides must compute identically:
 * checksums, the layout of a selection as the predictor sees it, and the
 * predictor itself.  Every prediction is exact integer arithmetic, so a
 * recording made on one machine decodes bit for bit on any other.
 *
 * How a counter is predicted (docs/FORMAT-recording.md, "Values"): the
 * first sample after a heartbeat is stored whole, the second as a delta,
 * and from the third on each counter's delta is predicted by one of a
 * few candidates: the same delta as last time, the delta of the same
 * counter read by another pick, or the delta of an earlier column of the
 * same record scaled by last interval's ratio (counters of one group that
 * count the same activity move together), or that column's change
 * subtracted (idle and busy cycles add up to all cycles).  Which candidate
 * is used is chosen from what worked best on the previous sample, by the
 * writer and the reader alike, so the choice costs no bytes.
 */
#include "config.h"

#include "record/record-int.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const uint16_t record_crc16_table[4][256] = {
	{
		0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
		0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
		0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
		0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
		0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
		0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
		0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
		0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
		0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
		0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
		0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
		0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
		0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
		0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
		0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
		0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
		0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
		0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
		0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
		0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
		0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
		0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
		0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
		0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
		0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
		0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
		0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
		0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
		0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
		0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
		0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
		0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
	},
	{
		0x0000, 0x3331, 0x6662, 0x5553, 0xccc4, 0xfff5, 0xaaa6, 0x9997,
		0x89a9, 0xba98, 0xefcb, 0xdcfa, 0x456d, 0x765c, 0x230f, 0x103e,
		0x0373, 0x3042, 0x6511, 0x5620, 0xcfb7, 0xfc86, 0xa9d5, 0x9ae4,
		0x8ada, 0xb9eb, 0xecb8, 0xdf89, 0x461e, 0x752f, 0x207c, 0x134d,
		0x06e6, 0x35d7, 0x6084, 0x53b5, 0xca22, 0xf913, 0xac40, 0x9f71,
		0x8f4f, 0xbc7e, 0xe92d, 0xda1c, 0x438b, 0x70ba, 0x25e9, 0x16d8,
		0x0595, 0x36a4, 0x63f7, 0x50c6, 0xc951, 0xfa60, 0xaf33, 0x9c02,
		0x8c3c, 0xbf0d, 0xea5e, 0xd96f, 0x40f8, 0x73c9, 0x269a, 0x15ab,
		0x0dcc, 0x3efd, 0x6bae, 0x589f, 0xc108, 0xf239, 0xa76a, 0x945b,
		0x8465, 0xb754, 0xe207, 0xd136, 0x48a1, 0x7b90, 0x2ec3, 0x1df2,
		0x0ebf, 0x3d8e, 0x68dd, 0x5bec, 0xc27b, 0xf14a, 0xa419, 0x9728,
		0x8716, 0xb427, 0xe174, 0xd245, 0x4bd2, 0x78e3, 0x2db0, 0x1e81,
		0x0b2a, 0x381b, 0x6d48, 0x5e79, 0xc7ee, 0xf4df, 0xa18c, 0x92bd,
		0x8283, 0xb1b2, 0xe4e1, 0xd7d0, 0x4e47, 0x7d76, 0x2825, 0x1b14,
		0x0859, 0x3b68, 0x6e3b, 0x5d0a, 0xc49d, 0xf7ac, 0xa2ff, 0x91ce,
		0x81f0, 0xb2c1, 0xe792, 0xd4a3, 0x4d34, 0x7e05, 0x2b56, 0x1867,
		0x1b98, 0x28a9, 0x7dfa, 0x4ecb, 0xd75c, 0xe46d, 0xb13e, 0x820f,
		0x9231, 0xa100, 0xf453, 0xc762, 0x5ef5, 0x6dc4, 0x3897, 0x0ba6,
		0x18eb, 0x2bda, 0x7e89, 0x4db8, 0xd42f, 0xe71e, 0xb24d, 0x817c,
		0x9142, 0xa273, 0xf720, 0xc411, 0x5d86, 0x6eb7, 0x3be4, 0x08d5,
		0x1d7e, 0x2e4f, 0x7b1c, 0x482d, 0xd1ba, 0xe28b, 0xb7d8, 0x84e9,
		0x94d7, 0xa7e6, 0xf2b5, 0xc184, 0x5813, 0x6b22, 0x3e71, 0x0d40,
		0x1e0d, 0x2d3c, 0x786f, 0x4b5e, 0xd2c9, 0xe1f8, 0xb4ab, 0x879a,
		0x97a4, 0xa495, 0xf1c6, 0xc2f7, 0x5b60, 0x6851, 0x3d02, 0x0e33,
		0x1654, 0x2565, 0x7036, 0x4307, 0xda90, 0xe9a1, 0xbcf2, 0x8fc3,
		0x9ffd, 0xaccc, 0xf99f, 0xcaae, 0x5339, 0x6008, 0x355b, 0x066a,
		0x1527, 0x2616, 0x7345, 0x4074, 0xd9e3, 0xead2, 0xbf81, 0x8cb0,
		0x9c8e, 0xafbf, 0xfaec, 0xc9dd, 0x504a, 0x637b, 0x3628, 0x0519,
		0x10b2, 0x2383, 0x76d0, 0x45e1, 0xdc76, 0xef47, 0xba14, 0x8925,
		0x991b, 0xaa2a, 0xff79, 0xcc48, 0x55df, 0x66ee, 0x33bd, 0x008c,
		0x13c1, 0x20f0, 0x75a3, 0x4692, 0xdf05, 0xec34, 0xb967, 0x8a56,
		0x9a68, 0xa959, 0xfc0a, 0xcf3b, 0x56ac, 0x659d, 0x30ce, 0x03ff,
	},
	{
		0x0000, 0x3730, 0x6e60, 0x5950, 0xdcc0, 0xebf0, 0xb2a0, 0x8590,
		0xa9a1, 0x9e91, 0xc7c1, 0xf0f1, 0x7561, 0x4251, 0x1b01, 0x2c31,
		0x4363, 0x7453, 0x2d03, 0x1a33, 0x9fa3, 0xa893, 0xf1c3, 0xc6f3,
		0xeac2, 0xddf2, 0x84a2, 0xb392, 0x3602, 0x0132, 0x5862, 0x6f52,
		0x86c6, 0xb1f6, 0xe8a6, 0xdf96, 0x5a06, 0x6d36, 0x3466, 0x0356,
		0x2f67, 0x1857, 0x4107, 0x7637, 0xf3a7, 0xc497, 0x9dc7, 0xaaf7,
		0xc5a5, 0xf295, 0xabc5, 0x9cf5, 0x1965, 0x2e55, 0x7705, 0x4035,
		0x6c04, 0x5b34, 0x0264, 0x3554, 0xb0c4, 0x87f4, 0xdea4, 0xe994,
		0x1dad, 0x2a9d, 0x73cd, 0x44fd, 0xc16d, 0xf65d, 0xaf0d, 0x983d,
		0xb40c, 0x833c, 0xda6c, 0xed5c, 0x68cc, 0x5ffc, 0x06ac, 0x319c,
		0x5ece, 0x69fe, 0x30ae, 0x079e, 0x820e, 0xb53e, 0xec6e, 0xdb5e,
		0xf76f, 0xc05f, 0x990f, 0xae3f, 0x2baf, 0x1c9f, 0x45cf, 0x72ff,
		0x9b6b, 0xac5b, 0xf50b, 0xc23b, 0x47ab, 0x709b, 0x29cb, 0x1efb,
		0x32ca, 0x05fa, 0x5caa, 0x6b9a, 0xee0a, 0xd93a, 0x806a, 0xb75a,
		0xd808, 0xef38, 0xb668, 0x8158, 0x04c8, 0x33f8, 0x6aa8, 0x5d98,
		0x71a9, 0x4699, 0x1fc9, 0x28f9, 0xad69, 0x9a59, 0xc309, 0xf439,
		0x3b5a, 0x0c6a, 0x553a, 0x620a, 0xe79a, 0xd0aa, 0x89fa, 0xbeca,
		0x92fb, 0xa5cb, 0xfc9b, 0xcbab, 0x4e3b, 0x790b, 0x205b, 0x176b,
		0x7839, 0x4f09, 0x1659, 0x2169, 0xa4f9, 0x93c9, 0xca99, 0xfda9,
		0xd198, 0xe6a8, 0xbff8, 0x88c8, 0x0d58, 0x3a68, 0x6338, 0x5408,
		0xbd9c, 0x8aac, 0xd3fc, 0xe4cc, 0x615c, 0x566c, 0x0f3c, 0x380c,
		0x143d, 0x230d, 0x7a5d, 0x4d6d, 0xc8fd, 0xffcd, 0xa69d, 0x91ad,
		0xfeff, 0xc9cf, 0x909f, 0xa7af, 0x223f, 0x150f, 0x4c5f, 0x7b6f,
		0x575e, 0x606e, 0x393e, 0x0e0e, 0x8b9e, 0xbcae, 0xe5fe, 0xd2ce,
		0x26f7, 0x11c7, 0x4897, 0x7fa7, 0xfa37, 0xcd07, 0x9457, 0xa367,
		0x8f56, 0xb866, 0xe136, 0xd606, 0x5396, 0x64a6, 0x3df6, 0x0ac6,
		0x6594, 0x52a4, 0x0bf4, 0x3cc4, 0xb954, 0x8e64, 0xd734, 0xe004,
		0xcc35, 0xfb05, 0xa255, 0x9565, 0x10f5, 0x27c5, 0x7e95, 0x49a5,
		0xa031, 0x9701, 0xce51, 0xf961, 0x7cf1, 0x4bc1, 0x1291, 0x25a1,
		0x0990, 0x3ea0, 0x67f0, 0x50c0, 0xd550, 0xe260, 0xbb30, 0x8c00,
		0xe352, 0xd462, 0x8d32, 0xba02, 0x3f92, 0x08a2, 0x51f2, 0x66c2,
		0x4af3, 0x7dc3, 0x2493, 0x13a3, 0x9633, 0xa103, 0xf853, 0xcf63,
	},
	{
		0x0000, 0x76b4, 0xed68, 0x9bdc, 0xcaf1, 0xbc45, 0x2799, 0x512d,
		0x85c3, 0xf377, 0x68ab, 0x1e1f, 0x4f32, 0x3986, 0xa25a, 0xd4ee,
		0x1ba7, 0x6d13, 0xf6cf, 0x807b, 0xd156, 0xa7e2, 0x3c3e, 0x4a8a,
		0x9e64, 0xe8d0, 0x730c, 0x05b8, 0x5495, 0x2221, 0xb9fd, 0xcf49,
		0x374e, 0x41fa, 0xda26, 0xac92, 0xfdbf, 0x8b0b, 0x10d7, 0x6663,
		0xb28d, 0xc439, 0x5fe5, 0x2951, 0x787c, 0x0ec8, 0x9514, 0xe3a0,
		0x2ce9, 0x5a5d, 0xc181, 0xb735, 0xe618, 0x90ac, 0x0b70, 0x7dc4,
		0xa92a, 0xdf9e, 0x4442, 0x32f6, 0x63db, 0x156f, 0x8eb3, 0xf807,
		0x6e9c, 0x1828, 0x83f4, 0xf540, 0xa46d, 0xd2d9, 0x4905, 0x3fb1,
		0xeb5f, 0x9deb, 0x0637, 0x7083, 0x21ae, 0x571a, 0xccc6, 0xba72,
		0x753b, 0x038f, 0x9853, 0xeee7, 0xbfca, 0xc97e, 0x52a2, 0x2416,
		0xf0f8, 0x864c, 0x1d90, 0x6b24, 0x3a09, 0x4cbd, 0xd761, 0xa1d5,
		0x59d2, 0x2f66, 0xb4ba, 0xc20e, 0x9323, 0xe597, 0x7e4b, 0x08ff,
		0xdc11, 0xaaa5, 0x3179, 0x47cd, 0x16e0, 0x6054, 0xfb88, 0x8d3c,
		0x4275, 0x34c1, 0xaf1d, 0xd9a9, 0x8884, 0xfe30, 0x65ec, 0x1358,
		0xc7b6, 0xb102, 0x2ade, 0x5c6a, 0x0d47, 0x7bf3, 0xe02f, 0x969b,
		0xdd38, 0xab8c, 0x3050, 0x46e4, 0x17c9, 0x617d, 0xfaa1, 0x8c15,
		0x58fb, 0x2e4f, 0xb593, 0xc327, 0x920a, 0xe4be, 0x7f62, 0x09d6,
		0xc69f, 0xb02b, 0x2bf7, 0x5d43, 0x0c6e, 0x7ada, 0xe106, 0x97b2,
		0x435c, 0x35e8, 0xae34, 0xd880, 0x89ad, 0xff19, 0x64c5, 0x1271,
		0xea76, 0x9cc2, 0x071e, 0x71aa, 0x2087, 0x5633, 0xcdef, 0xbb5b,
		0x6fb5, 0x1901, 0x82dd, 0xf469, 0xa544, 0xd3f0, 0x482c, 0x3e98,
		0xf1d1, 0x8765, 0x1cb9, 0x6a0d, 0x3b20, 0x4d94, 0xd648, 0xa0fc,
		0x7412, 0x02a6, 0x997a, 0xefce, 0xbee3, 0xc857, 0x538b, 0x253f,
		0xb3a4, 0xc510, 0x5ecc, 0x2878, 0x7955, 0x0fe1, 0x943d, 0xe289,
		0x3667, 0x40d3, 0xdb0f, 0xadbb, 0xfc96, 0x8a22, 0x11fe, 0x674a,
		0xa803, 0xdeb7, 0x456b, 0x33df, 0x62f2, 0x1446, 0x8f9a, 0xf92e,
		0x2dc0, 0x5b74, 0xc0a8, 0xb61c, 0xe731, 0x9185, 0x0a59, 0x7ced,
		0x84ea, 0xf25e, 0x6982, 0x1f36, 0x4e1b, 0x38af, 0xa373, 0xd5c7,
		0x0129, 0x779d, 0xec41, 0x9af5, 0xcbd8, 0xbd6c, 0x26b0, 0x5004,
		0x9f4d, 0xe9f9, 0x7225, 0x0491, 0x55bc, 0x2308, 0xb8d4, 0xce60,
		0x1a8e, 0x6c3a, 0xf7e6, 0x8152, 0xd07f, 0xa6cb, 0x3d17, 0x4ba3,
	},
};

static const uint32_t record_crc32_table[256] = {
	0x00000000, 0x77073096, 0xee0e612c, 0x990951ba,
	0x076dc419, 0x706af48f, 0xe963a535, 0x9e6495a3,
	0x0edb8832, 0x79dcb8a4, 0xe0d5e91e, 0x97d2d988,
	0x09b64c2b, 0x7eb17cbd, 0xe7b82d07, 0x90bf1d91,
	0x1db71064, 0x6ab020f2, 0xf3b97148, 0x84be41de,
	0x1adad47d, 0x6ddde4eb, 0xf4d4b551, 0x83d385c7,
	0x136c9856, 0x646ba8c0, 0xfd62f97a, 0x8a65c9ec,
	0x14015c4f, 0x63066cd9, 0xfa0f3d63, 0x8d080df5,
	0x3b6e20c8, 0x4c69105e, 0xd56041e4, 0xa2677172,
	0x3c03e4d1, 0x4b04d447, 0xd20d85fd, 0xa50ab56b,
	0x35b5a8fa, 0x42b2986c, 0xdbbbc9d6, 0xacbcf940,
	0x32d86ce3, 0x45df5c75, 0xdcd60dcf, 0xabd13d59,
	0x26d930ac, 0x51de003a, 0xc8d75180, 0xbfd06116,
	0x21b4f4b5, 0x56b3c423, 0xcfba9599, 0xb8bda50f,
	0x2802b89e, 0x5f058808, 0xc60cd9b2, 0xb10be924,
	0x2f6f7c87, 0x58684c11, 0xc1611dab, 0xb6662d3d,
	0x76dc4190, 0x01db7106, 0x98d220bc, 0xefd5102a,
	0x71b18589, 0x06b6b51f, 0x9fbfe4a5, 0xe8b8d433,
	0x7807c9a2, 0x0f00f934, 0x9609a88e, 0xe10e9818,
	0x7f6a0dbb, 0x086d3d2d, 0x91646c97, 0xe6635c01,
	0x6b6b51f4, 0x1c6c6162, 0x856530d8, 0xf262004e,
	0x6c0695ed, 0x1b01a57b, 0x8208f4c1, 0xf50fc457,
	0x65b0d9c6, 0x12b7e950, 0x8bbeb8ea, 0xfcb9887c,
	0x62dd1ddf, 0x15da2d49, 0x8cd37cf3, 0xfbd44c65,
	0x4db26158, 0x3ab551ce, 0xa3bc0074, 0xd4bb30e2,
	0x4adfa541, 0x3dd895d7, 0xa4d1c46d, 0xd3d6f4fb,
	0x4369e96a, 0x346ed9fc, 0xad678846, 0xda60b8d0,
	0x44042d73, 0x33031de5, 0xaa0a4c5f, 0xdd0d7cc9,
	0x5005713c, 0x270241aa, 0xbe0b1010, 0xc90c2086,
	0x5768b525, 0x206f85b3, 0xb966d409, 0xce61e49f,
	0x5edef90e, 0x29d9c998, 0xb0d09822, 0xc7d7a8b4,
	0x59b33d17, 0x2eb40d81, 0xb7bd5c3b, 0xc0ba6cad,
	0xedb88320, 0x9abfb3b6, 0x03b6e20c, 0x74b1d29a,
	0xead54739, 0x9dd277af, 0x04db2615, 0x73dc1683,
	0xe3630b12, 0x94643b84, 0x0d6d6a3e, 0x7a6a5aa8,
	0xe40ecf0b, 0x9309ff9d, 0x0a00ae27, 0x7d079eb1,
	0xf00f9344, 0x8708a3d2, 0x1e01f268, 0x6906c2fe,
	0xf762575d, 0x806567cb, 0x196c3671, 0x6e6b06e7,
	0xfed41b76, 0x89d32be0, 0x10da7a5a, 0x67dd4acc,
	0xf9b9df6f, 0x8ebeeff9, 0x17b7be43, 0x60b08ed5,
	0xd6d6a3e8, 0xa1d1937e, 0x38d8c2c4, 0x4fdff252,
	0xd1bb67f1, 0xa6bc5767, 0x3fb506dd, 0x48b2364b,
	0xd80d2bda, 0xaf0a1b4c, 0x36034af6, 0x41047a60,
	0xdf60efc3, 0xa867df55, 0x316e8eef, 0x4669be79,
	0xcb61b38c, 0xbc66831a, 0x256fd2a0, 0x5268e236,
	0xcc0c7795, 0xbb0b4703, 0x220216b9, 0x5505262f,
	0xc5ba3bbe, 0xb2bd0b28, 0x2bb45a92, 0x5cb36a04,
	0xc2d7ffa7, 0xb5d0cf31, 0x2cd99e8b, 0x5bdeae1d,
	0x9b64c2b0, 0xec63f226, 0x756aa39c, 0x026d930a,
	0x9c0906a9, 0xeb0e363f, 0x72076785, 0x05005713,
	0x95bf4a82, 0xe2b87a14, 0x7bb12bae, 0x0cb61b38,
	0x92d28e9b, 0xe5d5be0d, 0x7cdcefb7, 0x0bdbdf21,
	0x86d3d2d4, 0xf1d4e242, 0x68ddb3f8, 0x1fda836e,
	0x81be16cd, 0xf6b9265b, 0x6fb077e1, 0x18b74777,
	0x88085ae6, 0xff0f6a70, 0x66063bca, 0x11010b5c,
	0x8f659eff, 0xf862ae69, 0x616bffd3, 0x166ccf45,
	0xa00ae278, 0xd70dd2ee, 0x4e048354, 0x3903b3c2,
	0xa7672661, 0xd06016f7, 0x4969474d, 0x3e6e77db,
	0xaed16a4a, 0xd9d65adc, 0x40df0b66, 0x37d83bf0,
	0xa9bcae53, 0xdebb9ec5, 0x47b2cf7f, 0x30b5ffe9,
	0xbdbdf21c, 0xcabac28a, 0x53b39330, 0x24b4a3a6,
	0xbad03605, 0xcdd70693, 0x54de5729, 0x23d967bf,
	0xb3667a2e, 0xc4614ab8, 0x5d681b02, 0x2a6f2b94,
	0xb40bbe37, 0xc30c8ea1, 0x5a05df1b, 0x2d02ef8d,
};

/* Four bytes a step (table k advances a byte k places). */
uint16_t
record_codec_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	const uint16_t	(*t)[256] = record_crc16_table;

	for (; n >= 4; n -= 4, p += 4)
		crc = t[3][(p[0] ^ crc >> 8) & 0xff] ^
		    t[2][(p[1] ^ crc) & 0xff] ^ t[1][p[2]] ^ t[0][p[3]];
	for (; n > 0; n--, p++)
		crc = (uint16_t)(crc << 8 ^ t[0][(crc >> 8 ^ *p) & 0xff]);
	return (crc);
}

/* crc is the value returned so far (0 to start). */
uint32_t
record_codec_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	size_t	 i;

	crc = ~crc;
	for (i = 0; i < n; i++)
		crc = record_crc32_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return (~crc);
}

uint64_t
record_codec_muldiv_portable(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t	 al = a & 0xffffffffU, ah = a >> 32;
	uint64_t	 bl = b & 0xffffffffU, bh = b >> 32;
	uint64_t	 ll, lh, hl, hh, mid, lo, hi, q = 0, r = 0;
	int		 i, top;

	/* The 128-bit product hi:lo from four 32 x 32 products. */
	ll = al * bl;
	lh = al * bh;
	hl = ah * bl;
	hh = ah * bh;
	mid = (ll >> 32) + (lh & 0xffffffffU) + (hl & 0xffffffffU);
	lo = (ll & 0xffffffffU) | (mid << 32);
	hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	/* Long division, one bit at a time; only the low 64 quotient bits
	 * are kept, as the 128-bit version keeps them. */
	for (i = 127; i >= 0; i--) {
		top = (r >> 63) != 0;
		r = (r << 1) | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return (q);
}

uint64_t
record_codec_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	/* Both factors below 2^32: the product fits 64 bits. */
	if ((a | b) >> 32 == 0)
		return (a * b / c);
	return ((uint64_t)((unsigned __int128)a * b / c));
#else
	return (record_codec_muldiv_portable(a, b, c));
#endif
}

/* ---- layout -------------------------------------------------------- */

static uint64_t
record_codec_hash(const char *name, int domain, unsigned index,
    unsigned lpar)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	h ^= (uint64_t)(unsigned)domain << 48 ^ (uint64_t)lpar << 32 ^ index;
	h *= 0x9e3779b97f4a7c15ULL;
	return (h ^ (h >> 29));
}

struct record_codec_key {
	const char	*name;
	int		 domain;
	unsigned	 index;
	unsigned	 lpar;
};

void
record_codec_layout(struct record_layout *lay,
    const struct record_selection *sel)
{
	const struct record_pick	*pk;
	const struct record_codec_key	*o;
	struct record_codec_key		*keys;
	size_t				*slots, nslots, mask, k, p, i, c, s;
	size_t				 cls = 0;
	uint64_t			 h;

	memset(lay, 0, sizeof *lay);
	lay->n = sel->ncounters;
	lay->block = xcalloc(lay->n + 1, sizeof *lay->block);
	lay->ncol = xcalloc(lay->n + 1, sizeof *lay->ncol);
	lay->col = xcalloc(lay->n + 1, sizeof *lay->col);
	lay->cls = xcalloc(lay->n + 1, sizeof *lay->cls);
	lay->dup = xcalloc(lay->n + 1, sizeof *lay->dup);
	keys = xcalloc(lay->n + 1, sizeof *keys);
	for (nslots = 16; nslots < 2 * lay->n; nslots *= 2)
		;
	mask = nslots - 1;
	slots = xreallocarray(NULL, nslots, sizeof *slots);
	for (s = 0; s < nslots; s++)
		slots[s] = RECORD_NONE;
	k = 0;
	for (p = 0; p < sel->npicks; p++) {
		pk = &sel->picks[p];
		for (i = 0; i < pk->nindices; i++) {
			for (c = 0; c < pk->nevents && k < lay->n; c++, k++) {
				lay->block[k] = k - c;
				lay->ncol[k] = (uint8_t)pk->nevents;
				lay->col[k] = (uint8_t)c;
				lay->cls[k] = (uint16_t)(cls + c <
				    RECORD_CLASSES_MAX ? cls + c :
				    RECORD_CLASSES_MAX - 1);
				lay->dup[k] = RECORD_NONE;
				keys[k].name = pk->events[c];
				keys[k].domain = pk->domain;
				keys[k].index = pk->indices[i];
				keys[k].lpar = pk->lpar;
				h = record_codec_hash(keys[k].name,
				    keys[k].domain, keys[k].index,
				    keys[k].lpar);
				/* The first counter with this key wins. */
				for (s = h & mask; slots[s] != RECORD_NONE;
				    s = (s + 1) & mask) {
					o = &keys[slots[s]];
					if (o->domain == keys[k].domain &&
					    o->index == keys[k].index &&
					    o->lpar == keys[k].lpar &&
					    strcmp(o->name, keys[k].name) == 0)
						break;
				}
				if (slots[s] == RECORD_NONE)
					slots[s] = k;
				else if (slots[s] < lay->block[k])
					lay->dup[k] = slots[s];
			}
		}
		cls += pk->nevents;
	}
	/* A selection whose counts disagree: the rest stand alone. */
	for (; k < lay->n; k++) {
		lay->block[k] = k;
		lay->ncol[k] = 1;
		lay->dup[k] = RECORD_NONE;
	}
	lay->nclasses = cls < RECORD_CLASSES_MAX ? cls + 1 :
	    RECORD_CLASSES_MAX;
	free(slots);
	free(keys);
}

void
record_codec_layout_free(struct record_layout *lay)
{
	free(lay->block);
	free(lay->ncol);
	free(lay->col);
	free(lay->cls);
	free(lay->dup);
	memset(lay, 0, sizeof *lay);
}

/* ---- the predictor ------------------------------------------------- */

void
record_codec_pred_init(struct record_pred *p,
    const struct record_selection *sel, uint64_t interval)
{
	size_t	 n;

	memset(p, 0, sizeof *p);
	record_codec_layout(&p->lay, sel);
	n = p->lay.n + 1;
	p->v1 = xcalloc(n, sizeof *p->v1);
	p->d1 = xcalloc(n, sizeof *p->d1);
	p->d2 = xcalloc(n, sizeof *p->d2);
	p->d0 = xcalloc(n, sizeof *p->d0);
	p->tb1 = xcalloc(n, sizeof *p->tb1);
	p->cur = xcalloc(n, sizeof *p->cur);
	p->tbcur = xcalloc(n, sizeof *p->tbcur);
	p->best = xcalloc(n, sizeof *p->best);
	p->order = xcalloc(n, sizeof *p->order);
	p->score = xcalloc(n * RECORD_P_NCAND, sizeof *p->score);
	p->bscore = xcalloc(n, sizeof *p->bscore);
	p->lastn = xcalloc(n, sizeof *p->lastn);
	p->review = xcalloc(2 * n, sizeof *p->review);
	p->m.val = xcalloc(p->lay.nclasses * RECORD_VCTX, sizeof *p->m.val);
	p->interval = interval;
	record_codec_pred_key(p, 0);
}

void
record_codec_pred_free(struct record_pred *p)
{
	record_codec_layout_free(&p->lay);
	free(p->v1);
	free(p->d1);
	free(p->d2);
	free(p->d0);
	free(p->tb1);
	free(p->cur);
	free(p->tbcur);
	free(p->best);
	free(p->order);
	free(p->score);
	free(p->bscore);
	free(p->lastn);
	free(p->review);
	free(p->m.val);
	memset(p, 0, sizeof *p);
}

void
record_codec_pred_key(struct record_pred *p, uint64_t t)
{
	struct record_models	*m = &p->m;
	size_t			 k;

	p->hist = 0;
	p->nsamp = 0;
	p->key_time = t;
	p->calls = 0;
	p->naive = 0;
	p->version = 0;
	p->error[0] = '\0';
	for (k = 0; k < p->lay.n; k++) {
		p->best[k] = p->lay.dup[k] != RECORD_NONE ? RECORD_P_DUP :
		    RECORD_P_REPEAT;
		p->order[k] = p->lay.col[k];
	}
	memset(p->score, 0, p->lay.n * RECORD_P_NCAND * sizeof *p->score);
	memset(p->bscore, 0, p->lay.n * sizeof *p->bscore);
	memset(p->lastn, 0, p->lay.n * sizeof *p->lastn);
	memset(p->review, 0, 2 * p->lay.n * sizeof *p->review);
	record_rc_model_init(m->flags, sizeof m->flags / sizeof m->flags[0]);
	record_rc_model_init(m->now, RECORD_RC_TREE);
	record_rc_model_init(&m->status[0][0], 8 * 8);
	record_rc_model_init(m->calls, RECORD_RC_TREE);
	record_rc_model_init(m->naive, RECORD_RC_TREE);
	record_rc_model_init(m->version, RECORD_RC_TREE);
	record_rc_model_init(m->errlen, RECORD_RC_TREE);
	record_rc_model_init(&m->tb[0][0], RECORD_STAGES * RECORD_RC_TREE);
	record_rc_sym_init(m->val, p->lay.nclasses * RECORD_VCTX);
}

/* The column candidate c (>= RECORD_P_SELF) refers to, from column i. */
static int
record_codec_ref(unsigned c, int i)
{
	unsigned	 r = (c - RECORD_P_SELF) / RECORD_P_KINDS;
	int		 off = (int)(r / 2) + 1;

	return (r % 2 == 0 ? i - off : i + off);
}

/* The ratio guess: k's last delta scaled as j's changed (dj). */
static inline uint64_t
record_codec_ratio(uint64_t dj, uint64_t d1k, uint64_t d1j)
{
	return (d1j == 0 ? d1k : record_codec_muldiv(dj, d1k, d1j));
}

/*
 * Candidate c's guess at counter k's delta this sample; history >= 2,
 * and the column c refers to is already decoded.
 */
static inline uint64_t
record_codec_guess(const struct record_pred *p, size_t k, unsigned c)
{
	size_t		 j;

	switch (c) {
	case RECORD_P_REPEAT:
		return (p->d1[k]);
	case RECORD_P_MEAN:
		if (p->hist < 3)
			return (p->d1[k]);
		return (p->d1[k] + (uint64_t)((int64_t)(p->d2[k] - p->d1[k]) /
		    2));
	case RECORD_P_DUP:
		j = p->lay.dup[k];
		return (j == RECORD_NONE ? p->d1[k] : p->d0[j]);
	}
	j = p->lay.block[k] + (size_t)record_codec_ref(c, p->lay.col[k]);
	if ((c - RECORD_P_SELF) % RECORD_P_KINDS == 0)
		return (record_codec_ratio(p->d0[j], p->d1[k], p->d1[j]));
	return (p->d1[k] + p->d1[j] - p->d0[j]);
}

static inline uint64_t
record_codec_pred_value(struct record_pred *p, size_t k)
{
	size_t	 j = p->lay.dup[k];

	switch (p->hist) {
	case 0:
		return (j != RECORD_NONE ? p->cur[j] : 0);
	case 1:
		if (j != RECORD_NONE)
			return (p->v1[k] + (p->cur[j] - p->v1[j]));
		/* Totals since the counters started: their ratio is the
		 * long-run ratio of the rates.  Columns go in order here. */
		if (p->lay.col[k] > 0 && p->v1[k - 1] != 0)
			return (p->v1[k] + record_codec_muldiv(p->cur[k - 1] -
			    p->v1[k - 1], p->v1[k], p->v1[k - 1]));
		return (p->v1[k]);
	}
	return (p->v1[k] + record_codec_guess(p, k, p->best[k]));
}

/*
 * Counter k of the record at b was coded with a residual of e bits.
 * Reviewing every candidate is most of the cost of learning, so a
 * column's candidates are all scored only every RECORD_P_EVERY samples
 * (records take turns: all) or when its guess was notably worse than
 * usual; otherwise only the chosen candidate's score moves, here, while
 * the numbers are at hand.
 */
static inline void
record_codec_coded(struct record_pred *p, size_t b, size_t k, unsigned e,
    int all)
{
	p->lastn[k] = (uint8_t)e;
	if (p->hist < 2)
		return;
	if (!all && e <= (unsigned)(p->bscore[k] >> 3) + RECORD_P_MISS) {
		p->bscore[k] = (uint16_t)(p->bscore[k] - (p->bscore[k] >> 3) +
		    e);
		return;
	}
	p->review[k] = 1;
	p->review[p->lay.n + b] = 1;
}

/* Whether the record at b reviews all its columns this sample. */
static inline int
record_codec_all(const struct record_pred *p, size_t b)
{
	return (((p->nsamp + b) % RECORD_P_EVERY) == 0);
}

/*
 * A steady sample's values (history 2 and more, most samples): the steps
 * of record_codec_encode_values() without the history's tests, and with
 * the arrays in locals.
 */
static void
record_codec_encode_steady(struct record_pred *p, struct record_rc_enc *e0,
    struct record_bits *bw0, const struct raw_value *v)
{
	struct record_rc_enc e1 = *e0, *e = &e1;
	struct record_bits bw1 = *bw0, *bw = &bw1;
	const uint8_t	*ncol = p->lay.ncol, *order = p->order;
	const uint8_t	*best = p->best;
	const uint16_t	*cls = p->lay.cls;
	struct record_sym *val = p->m.val;
	uint64_t	*cur = p->cur, *d0 = p->d0;
	const uint64_t	*v1 = p->v1;
	uint16_t	*bscore = p->bscore;
	uint8_t		*lastn = p->lastn;
	size_t		 n = p->lay.n, b, i, k, nc;
	uint64_t	 zz, x;
	unsigned	 nb, ctx;
	int		 all;

	for (b = 0; b < n; b += nc) {
		all = record_codec_all(p, b);
		nc = ncol[b];
		for (i = 0; i < nc; i++) {
			k = b + order[b + i];
			x = v[k].value;
			zz = record_zigzag((int64_t)(x - (v1[k] +
			    record_codec_guess(p, k, best[k]))));
			ctx = 2 + (best[k] >= RECORD_P_SELF ? RECORD_BANDS :
			    0) + record_codec_band[lastn[k]];
			nb = record_rc_enc_sym(e, &val[(size_t)cls[k] *
			    RECORD_VCTX + ctx], zz);
			record_bits_put(bw, zz, nb > 2 ? nb - 2 : 0);
			/* record_codec_coded(), history >= 2 */
			lastn[k] = (uint8_t)nb;
			if (!all && nb <= (unsigned)(bscore[k] >> 3) +
			    RECORD_P_MISS)
				bscore[k] = (uint16_t)(bscore[k] -
				    (bscore[k] >> 3) + nb);
			else {
				p->review[k] = 1;
				p->review[n + b] = 1;
			}
			cur[k] = x;
			d0[k] = x - v1[k];
		}
	}
	*e0 = e1;
	*bw0 = bw1;
}

/* This sample's values, record by record in coding order. */
void
record_codec_encode_values(struct record_pred *p, struct record_rc_enc *e,
    struct record_bits *bw, const struct raw_value *v)
{
	size_t		 n = p->lay.n, b, i, k;
	uint64_t	 zz;
	unsigned	 nb;
	int		 all;

	if (p->hist >= 2) {
		record_codec_encode_steady(p, e, bw, v);
		return;
	}
	for (b = 0; b < n; b += p->lay.ncol[b]) {
		all = record_codec_all(p, b);
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			zz = record_zigzag((int64_t)(v[k].value -
			    record_codec_pred_value(p, k)));
			nb = record_rc_enc_sym(e, record_codec_pred_model(p, k),
			    zz);
			record_bits_put(bw, zz, nb > 2 ? nb - 2 : 0);
			record_codec_coded(p, b, k, nb, all);
			p->cur[k] = v[k].value;
			p->d0[k] = p->cur[k] - p->v1[k];
		}
	}
}

/* The first pass: each value's symbol, that is its leading bits, into
 * cur, which record_codec_decode_values() completes. */
void
record_codec_decode_symbols(struct record_pred *p, struct record_rc_dec *d)
{
	size_t		 n = p->lay.n, b, i, k;
	int		 all;

	for (b = 0; b < n && d->error == 0; b += p->lay.ncol[b]) {
		all = record_codec_all(p, b);
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			p->cur[k] = record_rc_dec_sym(d,
			    record_codec_pred_model(p, k));
			record_codec_coded(p, b, k, record_bitlen(p->cur[k]),
			    all);
		}
	}
}

void
record_codec_decode_values(struct record_pred *p, struct record_bits_rd *br)
{
	size_t		 n = p->lay.n, b, i, k;
	uint64_t	 zz;

	for (b = 0; b < n && br->error == 0; b += p->lay.ncol[b]) {
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			zz = p->cur[k];
			if (p->lastn[k] >= 3)
				zz |= record_bits_get(br, p->lastn[k] - 2);
			p->cur[k] = record_codec_pred_value(p, k) +
			    (uint64_t)record_unzigzag(zz);
			p->d0[k] = p->cur[k] - p->v1[k];
		}
	}
}

uint64_t
record_codec_pred_now(const struct record_pred *p)
{
	switch (p->hist) {
	case 0:
		return (p->key_time);
	case 1:
		return (p->now1 + p->interval);
	}
	return (p->now1 + p->gap1);
}

/* Bits a residual costs, roughly: the score of a guess. */
static unsigned
record_codec_cost(uint64_t d, uint64_t guess)
{
	return (record_bitlen(record_zigzag((int64_t)(d - guess))));
}

/* The best candidate among those that need no other column. */
static unsigned
record_codec_self(const struct record_pred *p, size_t k)
{
	const uint16_t	*sc = &p->score[k * RECORD_P_NCAND];
	unsigned	 c, best = RECORD_P_REPEAT;

	for (c = 1; c < RECORD_P_SELF; c++) {
		if (c == RECORD_P_DUP && p->lay.dup[k] == RECORD_NONE)
			continue;
		if (sc[c] < sc[best])
			best = c;
	}
	return (best);
}

/* A candidate's guess cost bits: decay its score, keep the lowest. */
static inline void
record_codec_score(uint16_t *sc, unsigned c, unsigned bits, unsigned *best)
{
	sc[c] = (uint16_t)(sc[c] - (sc[c] >> 3) + bits);
	if (sc[c] < sc[*best])
		*best = c;
}

/* Score every candidate of column i of the record at b; the best. */
static unsigned
record_codec_review(struct record_pred *p, size_t b, unsigned i)
{
	size_t		 k = b + i, j;
	uint64_t	 d = p->d0[k], d1 = p->d1[k], dj;
	uint16_t	*sc = &p->score[k * RECORD_P_NCAND];
	unsigned	 c, r, off, bestc = RECORD_P_REPEAT;
	unsigned	 ncol = p->lay.ncol[b];

	sc[p->best[k]] = p->bscore[k];
	for (c = 0; c < RECORD_P_SELF; c++) {
		if (c == RECORD_P_DUP && p->lay.dup[k] == RECORD_NONE)
			continue;
		record_codec_score(sc, c, record_codec_cost(d,
		    record_codec_guess(p, k, c)), &bestc);
	}
	/* Only the columns the record has (most records are narrow), in
	 * candidate order: left then right at each distance. */
	for (r = 0; r < 2 * RECORD_P_REFS; r++) {
		off = r / 2 + 1;
		if (r % 2 == 0 ? off > i : i + off >= ncol) {
			if (off > i && i + off >= ncol)
				break;
			continue;
		}
		c = RECORD_P_SELF + r * RECORD_P_KINDS;
		j = b + (r % 2 == 0 ? i - off : i + off);
		dj = p->d0[j];
		record_codec_score(sc, c, record_codec_cost(d,
		    record_codec_ratio(dj, d1, p->d1[j])), &bestc);
		record_codec_score(sc, c + 1, record_codec_cost(d,
		    d1 + p->d1[j] - dj), &bestc);
	}
	return (bestc);
}

/*
 * Learn from this sample for the record starting at b: score the
 * candidates of the columns marked for review, let each take its best,
 * and order the columns so that each comes after the one it is predicted
 * from; where columns would wait for each other, the one that does best
 * on its own goes first.
 */
static void
record_codec_learn(struct record_pred *p, size_t b)
{
	unsigned	 ncol = p->lay.ncol[b], i, c, bestc, x, steps, m;
	int		 parent[256], cyc, changed = 0;
	uint8_t		 done[256], stack[256];
	size_t		 k, nout, top;

	for (i = 0; i < ncol; i++) {
		k = b + i;
		if (!p->review[k])
			continue;
		p->review[k] = 0;
		bestc = record_codec_review(p, b, i);
		if (bestc != p->best[k])
			changed = 1;
		p->best[k] = (uint8_t)bestc;
		p->bscore[k] = p->score[k * RECORD_P_NCAND + bestc];
	}
	if (!changed)
		return;
	for (i = 0; i < ncol; i++) {
		c = p->best[b + i];
		parent[i] = c >= RECORD_P_SELF ? record_codec_ref(c, (int)i) :
		    -1;
	}
	/* Break every cycle at its member that does best alone. */
	do {
		cyc = 0;
		for (i = 0; i < ncol && !cyc; i++) {
			x = i;
			for (steps = 0; parent[x] >= 0 && steps <= ncol;
			    steps++)
				x = (unsigned)parent[x];
			if (parent[x] < 0)
				continue;
			cyc = 1;
			m = x;
			for (c = (unsigned)parent[x]; c != x;
			    c = (unsigned)parent[c]) {
				if (p->score[(b + c) * RECORD_P_NCAND +
				    record_codec_self(p, b + c)] <
				    p->score[(b + m) * RECORD_P_NCAND +
				    record_codec_self(p, b + m)] ||
				    (p->score[(b + c) * RECORD_P_NCAND +
				    record_codec_self(p, b + c)] ==
				    p->score[(b + m) * RECORD_P_NCAND +
				    record_codec_self(p, b + m)] && c < m))
					m = c;
			}
			p->score[(b + m) * RECORD_P_NCAND + p->best[b + m]] =
			    p->bscore[b + m];
			p->best[b + m] = (uint8_t)record_codec_self(p, b + m);
			p->bscore[b + m] = p->score[(b + m) * RECORD_P_NCAND +
			    p->best[b + m]];
			parent[m] = -1;
		}
	} while (cyc);
	/* Sources first. */
	memset(done, 0, ncol);
	nout = 0;
	for (i = 0; i < ncol; i++) {
		top = 0;
		for (x = i; !done[x]; x = (unsigned)parent[x]) {
			stack[top++] = (uint8_t)x;
			done[x] = 1;
			if (parent[x] < 0)
				break;
		}
		while (top > 0)
			p->order[b + nout++] = stack[--top];
	}
}

static void
record_codec_swap(uint64_t **a, uint64_t **b)
{
	uint64_t	*t = *a;

	*a = *b;
	*b = t;
}

void
record_codec_pred_update(struct record_pred *p, uint64_t now)
{
	size_t	 k, n = p->lay.n;

	/* Only records with a column to review: record_codec_coded(). */
	for (k = 0; k < n; k += p->lay.ncol[k]) {
		if (p->review[n + k]) {
			p->review[n + k] = 0;
			record_codec_learn(p, k);
		}
	}
	p->nsamp++;
	/* History moves by rotating arrays: every sample sets all of cur,
	 * d0 and tbcur before reading them. */
	if (p->hist >= 1) {
		record_codec_swap(&p->d2, &p->d0);
		record_codec_swap(&p->d1, &p->d2);
		if (n > 0)
			p->tbd0 = p->tbcur[0] - p->tb1[0];
		p->gap1 = now - p->now1;
	}
	record_codec_swap(&p->v1, &p->cur);
	record_codec_swap(&p->tb1, &p->tbcur);
	p->now1 = now;
	if (p->hist < 3)
		p->hist++;
}
